//===- Tool.cpp - ompp-instrument's own command line ----------------------===//

#include "Tool.h"

#include "CompilerCommand.h"
#include "Driver.h"
#include "InstallPrefix.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#ifndef OMPP_VERSION
#error "OMPP_VERSION must be defined by the build"
#endif

namespace ompp::driver {

namespace cl = llvm::cl;
namespace path = llvm::sys::path;

namespace {

cl::OptionCategory ToolCategory("ompp-instrument options");

cl::opt<bool> EmitSource("emit-source", cl::cat(ToolCategory),
                         cl::desc("Print the instrumented source of every C/C++ input instead of "
                                  "compiling it (to stdout, or to the file given by -o)"));
cl::opt<std::string> EmitOutput("o", cl::cat(ToolCategory), cl::value_desc("file"),
                                cl::desc("With --emit-source: write the instrumented source to "
                                         "<file> (atomically) instead of stdout"));
cl::opt<bool> Opari2Compatible(
    "opari2-compatible", cl::cat(ToolCategory),
    cl::desc("Emit only OPARI2 2.0.7's POMP2 API and CTC strings, with POMP2_Init_reg_* "
             "functions, for OPARI2's init step and any POMP2 library"));
cl::list<std::string> Disabled(
    "disable", cl::cat(ToolCategory), cl::CommaSeparated, cl::value_desc("family,..."),
    cl::desc("Do not instrument these construct families (see --help-disable)"));
cl::opt<bool> HelpDisable("help-disable", cl::cat(ToolCategory),
                          cl::desc("List the construct families --disable accepts"));
cl::opt<bool> KeepUntied("keep-untied", cl::cat(ToolCategory),
                         cl::desc("Keep `untied` on tasks (default: made tied, with a note)"));
cl::opt<bool> TimeTrivial("time-trivial", cl::cat(ToolCategory),
                          cl::desc("Time atomic and flush constructs with enter/exit events (default: "
                                   "count them without reading the clock; --opari2-compatible times them)"));
cl::opt<std::string> UnitId("unit-id", cl::cat(ToolCategory), cl::value_desc("id"),
                            cl::desc("Translation-unit id in generated symbol names ([a-z0-9]+; "
                                     "default: derived from the source and output paths)"));
cl::opt<bool> KeepTemps("keep-temps", cl::cat(ToolCategory),
                        cl::desc("Keep the temporary directory with the instrumented sources and "
                                 "objects, and print its name"));
cl::opt<bool> Verbose("verbose", cl::cat(ToolCategory),
                      cl::desc("Print every command ompp-instrument runs, to stderr"));
cl::opt<std::string> Compiler("compiler", cl::cat(ToolCategory), cl::value_desc("compiler"),
                              cl::desc("Compiler of ompp-cc / ompp-c++ (default: $OMPP_CC or "
                                       "clang-16 / $OMPP_CXX or clang++-16)"));
cl::opt<std::string> RuntimeLibrary(
    "runtime-library", cl::cat(ToolCategory), cl::value_desc("file|none"),
    cl::desc("POMP2 library a link step adds (default: <prefix>/lib/libompp.so; `none`: add "
             "nothing, e.g. when linking OPARI2's libpomp.a yourself)"));
cl::opt<std::string> BuildPath("p", cl::cat(ToolCategory), cl::value_desc("build dir"),
                               cl::desc("Take the compiler command of each <source> from "
                                        "<build dir>/compile_commands.json"));
cl::list<std::string> Sources(cl::Positional, cl::cat(ToolCategory), cl::value_desc("source"),
                              cl::desc("-- <compiler> <compiler args>...\n"
                                       "       ompp-instrument [options] -p <build dir> "
                                       "<source>...\n"
                                       "       ompp-cc  [--ompp-<option>...] [--compiler=<cc>] "
                                       "<compiler args>...\n"
                                       "       ompp-c++ [--ompp-<option>...] [--compiler=<c++>] "
                                       "<compiler args>..."));

cl::extrahelp MoreHelp(R"(
DESCRIPTION
  ompp-instrument rewrites every C and C++ source of a compiler command so that
  each OpenMP construct, OpenMP lock call and user region reports to the POMP2
  measurement API, then runs the real compiler on the rewritten copy.  The
  copies live in a private temporary directory (mode 0700, removed afterwards):
  the source tree is never written to.  The compiler sees the original flags,
  the original -o, and `-I<prefix>/include -iquote <directory of the source>`,
  so "..." includes, default output names (a.c -> a.o), dependency files
  (-MD/-MMD name the original source) and debug information behave as without
  ompp.  A link step also gets -fopenmp (if missing) and
  `-L<prefix>/lib -Wl,-rpath,<prefix>/lib -lompp`.

  Passed through unchanged: -E, -M, -MM, -fsyntax-only, and commands without
  inputs (--version, -dumpmachine, ...).  Assembly, Objective-C and preprocessed
  (.i/.ii) inputs are compiled as they are.  Precompiled headers are refused.
  An input that already is ompp output is compiled unchanged, never
  instrumented twice.  <prefix> is the directory above the bin/ holding
  ompp-instrument, so a build tree or an install prefix copied anywhere works.

WRAPPERS
  ompp-cc and ompp-c++ are ompp-instrument with a default compiler.  They pass
  every argument to the compiler except --compiler=<compiler> and
  --ompp-<option> (an ompp-instrument option, e.g. --ompp-verbose,
  --ompp-keep-temps, --ompp-opari2-compatible, --ompp-help).
    make CC=ompp-cc CXX=ompp-c++
    cmake -DCMAKE_C_COMPILER=ompp-cc -DCMAKE_CXX_COMPILER=ompp-c++ ..
    cmake -DCMAKE_CXX_COMPILER_LAUNCHER="ompp-instrument;--" \
          -DCMAKE_CXX_LINKER_LAUNCHER="ompp-instrument;--" ..   (C likewise)

ENVIRONMENT
  OMPP_CC, OMPP_CXX          compiler of ompp-cc / ompp-c++ (--compiler wins)
  OMPP_INSTRUMENT_OPTIONS    ompp-instrument options added to every run,
                             e.g. "--verbose --keep-temps"
  OMPP_CLANG_RESOURCE_DIR    Clang's builtin headers for parsing (default: those
                             of the clang-16 ompp was built with)
  TMPDIR                     where the private temporary directory is made

EXIT STATUS
  The status of the first compiler command that fails, else 0.  A file Clang
  cannot parse is compiled unchanged: if the compiler rejects it too, its own
  diagnostics and status; else one warning.  1 for a missing input, a refused
  input or an unknown option; 127 if the compiler is not found.

EXAMPLES
  ompp-instrument -- clang++-16 -fopenmp -O2 -c solver.cpp -o solver.o
  ompp-instrument --verbose -- gcc -fopenmp main.c solver.o -o app
  ompp-instrument --emit-source -- clang-16 -fopenmp -c kernel.c
  ompp-instrument -p build --emit-source src/kernel.cpp
  ompp-instrument --opari2-compatible --runtime-library=none -- gcc -fopenmp -c t.c

FILES
  <prefix>/bin/ompp-instrument, ompp-cc, ompp-c++
  <prefix>/include/pomp2/     POMP2 headers the instrumented code includes
  <prefix>/lib/libompp.so     the measurement runtime linked by default
)");

std::string toolVersion() {
#ifdef NDEBUG
  return fmt::format("ompp-instrument (ompp) {}", OMPP_VERSION);
#else
  return fmt::format("ompp-instrument (ompp) {}\n  built with assertions", OMPP_VERSION);
#endif
}

} // namespace

ToolFlavor flavorOf(llvm::StringRef Argv0) {
  llvm::StringRef Name = path::filename(Argv0);
  if (Name.starts_with("ompp-c++") || Name.starts_with("ompp-cxx") || Name.starts_with("ompp-g++"))
    return ToolFlavor::CXXWrapper;
  if (Name.starts_with("ompp-cc") || Name.starts_with("ompp-gcc"))
    return ToolFlavor::CWrapper;
  return ToolFlavor::Instrument;
}

SplitArguments splitArguments(ToolFlavor Flavor, llvm::ArrayRef<const char *> Argv) {
  SplitArguments Split;
  Split.Tool.push_back(Argv.front());
  if (Flavor == ToolFlavor::Instrument) {
    auto Separator = llvm::find_if(Argv, [](llvm::StringRef A) { return A == "--"; });
    Split.Tool.insert(Split.Tool.end(), Argv.begin() + 1, Separator);
    if (Separator != Argv.end()) {
      Split.HasSeparator = true;
      Split.Compiler.assign(Separator + 1, Argv.end());
    }
    return Split;
  }
  Split.Compiler.push_back(""); // filled in once --compiler is known
  for (llvm::StringRef A : Argv.drop_front()) {
    if (A.consume_front("--ompp-"))
      Split.Tool.push_back(("--" + A).str());
    else if (A.starts_with("--compiler="))
      Split.Tool.push_back(A.str());
    else
      Split.Compiler.push_back(A.str());
  }
  return Split;
}

namespace {

std::string wrappedCompiler(ToolFlavor Flavor) {
  if (!Compiler.empty())
    return Compiler;
  const char *Variable = Flavor == ToolFlavor::CXXWrapper ? "OMPP_CXX" : "OMPP_CC";
  if (auto FromEnvironment = llvm::sys::Process::GetEnv(Variable); FromEnvironment && !FromEnvironment->empty())
    return *FromEnvironment;
  return Flavor == ToolFlavor::CXXWrapper ? "clang++-16" : "clang-16";
}

/// Whether \p Compiler resolves to this very executable (a wrapper told to
/// wrap itself would start itself forever).
bool namesThisTool(llvm::StringRef Compiler, const char *Argv0, void *MainAddress) {
  std::string Resolved = Compiler.str();
  if (!Compiler.contains('/')) {
    auto Found = llvm::sys::findProgramByName(Compiler);
    if (!Found)
      return false;
    Resolved = *Found;
  }
  return llvm::sys::fs::equivalent(Resolved,
                                   llvm::sys::fs::getMainExecutable(Argv0, MainAddress));
}

/// Parses the tool's own options; prints a one-line error on a bad one.
bool parseToolOptions(const std::vector<std::string> &Words) {
  std::vector<const char *> Argv;
  for (const std::string &W : Words)
    Argv.push_back(W.c_str());
  cl::HideUnrelatedOptions(ToolCategory);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) { OS << toolVersion() << "\n"; });
  std::string Errors;
  llvm::raw_string_ostream ErrorStream(Errors);
  bool Ok = cl::ParseCommandLineOptions(
      static_cast<int>(Argv.size()), Argv.data(),
      "instrument OpenMP C/C++ sources for the ompp profiler, then compile them\n",
      &ErrorStream, "OMPP_INSTRUMENT_OPTIONS", /*LongOptionsUseDoubleDash=*/true);
  if (!Ok) {
    llvm::StringRef First = llvm::StringRef(Errors).split('\n').first.trim();
    First.consume_front(llvm::StringRef(Argv.front()).str() + ": ");
    First.consume_front(path::filename(Argv.front()).str() + ": ");
    reportError(First);
  }
  return Ok;
}

int buildFromDatabase(Driver &TheDriver) {
  std::string Message;
  auto Database = clang::tooling::CompilationDatabase::loadFromDirectory(BuildPath, Message);
  if (!Database) {
    reportError(fmt::format("-p {}: {}", BuildPath.getValue(), Message));
    return 1;
  }
  llvm::SmallString<256> StartDir;
  llvm::sys::fs::current_path(StartDir);
  for (const std::string &Source : Sources) {
    llvm::SmallString<256> Absolute(Source);
    llvm::sys::fs::make_absolute(StartDir, Absolute);
    std::vector<clang::tooling::CompileCommand> Commands = Database->getCompileCommands(Absolute);
    if (Commands.empty()) {
      reportError(fmt::format("{}: not in {}/compile_commands.json", Source, BuildPath.getValue()));
      return 1;
    }
    const clang::tooling::CompileCommand &Entry = Commands.front();
    if (std::error_code EC = llvm::sys::fs::set_current_path(Entry.Directory)) {
      reportError(fmt::format("{}: cannot enter {}: {}", Source, Entry.Directory, EC.message()));
      return 1;
    }
    auto Command = CompilerCommand::parse(Entry.CommandLine);
    if (!Command) {
      reportError(fmt::format("{}: {}", Source, llvm::toString(Command.takeError())));
      return 1;
    }
    int Status = EmitSource ? TheDriver.emitSources(*Command, EmitOutput) : TheDriver.build(*Command);
    llvm::sys::fs::set_current_path(StartDir);
    if (Status != 0)
      return Status;
  }
  return 0;
}

} // namespace

int runTool(int Argc, const char **Argv, void *MainAddress) {
  ToolFlavor Flavor = flavorOf(Argv[0]);
  SplitArguments Split = splitArguments(Flavor, llvm::ArrayRef(Argv, Argc));
  if (!parseToolOptions(Split.Tool))
    return 1;

  if (HelpDisable) {
    for (const std::string &Family : instrument::disableableFamilies())
      llvm::outs() << Family << "\n";
    return 0;
  }
  std::vector<std::string> Known = instrument::disableableFamilies();
  for (const std::string &Family : Disabled)
    if (!llvm::is_contained(Known, Family)) {
      reportError(fmt::format("--disable: unknown construct family '{}' (see --help-disable)",
                              Family));
      return 1;
    }
  if (Flavor != ToolFlavor::Instrument) {
    Split.Compiler.front() = wrappedCompiler(Flavor);
    if (namesThisTool(Split.Compiler.front(), Argv[0], MainAddress)) {
      reportError(fmt::format("the compiler of {} is {} itself (check --compiler, OMPP_CC, "
                              "OMPP_CXX)",
                              path::filename(Argv[0]).str(), Split.Compiler.front()));
      return 1;
    }
  }
  else if (Split.HasSeparator && Split.Compiler.empty()) {
    reportError("no compiler command after '--'");
    return 1;
  }
  if (Flavor == ToolFlavor::Instrument && !Split.HasSeparator && BuildPath.empty()) {
    reportError(Sources.empty() ? "no compiler command (usage: ompp-instrument [options] -- "
                                  "<compiler> <args>...; see --help)"
                                : "sources need -p <build dir>, or give a compiler command after '--'");
    return 1;
  }
  if (!EmitOutput.empty() && !EmitSource) {
    reportError("-o without --emit-source: give the object's -o to the compiler, after '--'");
    return 1;
  }

  DriverOptions Options;
  Options.Prefix = InstallPrefix::ofExecutable(Argv[0], MainAddress);
  Options.Rewrite.Opari2Compatible = Opari2Compatible;
  Options.Rewrite.KeepUntied = KeepUntied;
  Options.Rewrite.TimeTrivial = TimeTrivial;
  Options.Rewrite.UnitId = UnitId;
  Options.Rewrite.Disabled.assign(Disabled.begin(), Disabled.end());
  Options.KeepTemps = KeepTemps;
  Options.Verbose = Verbose;
  Options.RuntimeLibrary = RuntimeLibrary;
  Driver TheDriver(std::move(Options), &instrument::rewriteFile);
  if (!Split.HasSeparator && Flavor == ToolFlavor::Instrument)
    return buildFromDatabase(TheDriver);

  auto Command = CompilerCommand::parse(Split.Compiler);
  if (!Command) {
    reportError(llvm::toString(Command.takeError()));
    return 1;
  }
  return EmitSource ? TheDriver.emitSources(*Command, EmitOutput) : TheDriver.build(*Command);
}

} // namespace ompp::driver
