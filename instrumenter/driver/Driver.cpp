//===- Driver.cpp - Instrument, then run the real compiler ----------------===//

#include "Driver.h"

#include "MPICompiler.h"
#include "RegionRegistration.h"
#include "TempDirectory.h"

#include "clang/Driver/Options.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cassert>
#include <map>

namespace ompp::driver {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
namespace opts = clang::driver::options;

namespace {

llvm::Error driverError(std::string Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

std::string absolutePath(llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  fs::make_absolute(Absolute);
  path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return Absolute.str().str();
}

/// Where the compiler puts the dependency file for an object: -MF, else the
/// output with its extension replaced by .d, else <input stem>.d (GCC and
/// Clang agree on this).
std::string dependencyFileOf(const CompilerCommand &Command, const CompilerInput &Input) {
  if (auto Explicit = Command.lastValue(opts::OPT_MF))
    return *Explicit;
  llvm::SmallString<256> Name(Command.output() ? llvm::StringRef(*Command.output())
                                               : path::filename(Input.Path));
  path::replace_extension(Name, ".d");
  return Name.str().str();
}

/// A stable id for one translation unit: distinct for distinct sources and
/// outputs of one program, identical across rebuilds (reproducible output).
std::string unitIdFor(const CompilerCommand &Command, const CompilerInput &Input) {
  std::string Key = absolutePath(Input.Path) + '\0' + Command.output().value_or("");
  return llvm::StringRef(llvm::toString(llvm::APInt(64, llvm::xxHash64(Key)), 36, false)).lower();
}

/// <TempDir>/<Name>, created: one directory per input (named by its
/// ordinal) keeps equal file names apart (a/x.c, b/x.c).  Reports its error
/// itself.
std::optional<std::string> inputDirectory(llvm::StringRef TempDir, llvm::StringRef Name) {
  llvm::SmallString<256> Directory(TempDir);
  path::append(Directory, Name);
  if (std::error_code EC = fs::create_directories(Directory, true, fs::owner_all)) {
    reportError(fmt::format("cannot create {}: {}", Directory.str().str(), EC.message()));
    return std::nullopt;
  }
  return Directory.str().str();
}

/// Standard input, saved as <TempDir>/stdin/-.  Reports its error itself.
std::optional<std::string> saveStandardInput(llvm::StringRef TempDir) {
  auto Directory = inputDirectory(TempDir, "stdin");
  if (!Directory)
    return std::nullopt;
  auto Text = llvm::MemoryBuffer::getSTDIN();
  if (!Text) {
    reportError(fmt::format("cannot read standard input: {}", Text.getError().message()));
    return std::nullopt;
  }
  llvm::SmallString<256> Path(*Directory);
  path::append(Path, "-");
  if (llvm::Error E = writeFileAtomically(Path, (*Text)->getBuffer())) {
    reportError(llvm::toString(std::move(E)));
    return std::nullopt;
  }
  return Path.str().str();
}

} // namespace

void reportError(llvm::StringRef Message) {
  llvm::errs() << "ompp-instrument: error: " << Message << "\n";
}

llvm::Error replaceInDependencyFile(llvm::StringRef DependencyFile, llvm::StringRef Copy,
                                    llvm::StringRef Original) {
  auto Buffer = llvm::MemoryBuffer::getFile(DependencyFile, /*IsText=*/true);
  if (!Buffer)
    return llvm::Error::success();
  llvm::StringRef Text = (*Buffer)->getBuffer();
  if (!Text.contains(Copy))
    return llvm::Error::success();
  std::string Escaped; // Make syntax: a space in a file name is "\ "
  for (char C : Original) {
    if (C == ' ' || C == '#')
      Escaped += '\\';
    Escaped += C;
  }
  std::string Fixed;
  for (size_t Pos = 0;;) {
    size_t Next = Text.find(Copy, Pos);
    Fixed += Text.slice(Pos, Next).str();
    if (Next == llvm::StringRef::npos)
      break;
    Fixed += Escaped;
    Pos = Next + Copy.size();
  }
  return writeFileAtomically(DependencyFile, Fixed);
}

std::optional<std::string> Driver::compilerPath(llvm::StringRef Program) {
  if (CompilerPath.empty()) {
    if (Program.contains('/')) {
      CompilerPath = Program.str();
    } else if (auto Found = llvm::sys::findProgramByName(Program)) {
      CompilerPath = *Found;
    } else {
      return std::nullopt;
    }
  }
  return CompilerPath;
}

std::optional<std::string> Driver::captureOutput(const CompilerCommand &Command,
                                                 llvm::ArrayRef<std::string> Args, bool Stderr) {
  auto Path = compilerPath(Command.compiler());
  if (!Path)
    return std::nullopt;
  llvm::SmallString<128> Output;
  if (fs::createTemporaryFile("ompp-instrument-probe", "txt", Output))
    return std::nullopt;
  llvm::FileRemover RemoveOutput(Output);
  std::vector<llvm::StringRef> Argv{Command.compiler()};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                Stderr ? llvm::StringRef("") : Output.str(),
                                                Stderr ? Output.str() : llvm::StringRef("")};
  if (llvm::sys::ExecuteAndWait(*Path, Argv, std::nullopt, Redirects) != 0)
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(Output, /*IsText=*/true);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

const CompilerIdentity &Driver::identity(const CompilerCommand &Command) {
  if (!Identity) {
    auto Macros = captureOutput(Command, {"-fopenmp", "-dM", "-E", "-x", "c", "/dev/null"},
                                /*Stderr=*/false);
    Identity = identityFromMacros(Macros.value_or(""));
  }
  return *Identity;
}

std::optional<Driver::OpenMPRuntime> Driver::openMPRuntime(const CompilerCommand &Command) {
  std::string OpenMPFlag = "-fopenmp";
  for (const CommandArg &A : Command.args())
    if (A.OptionID == opts::OPT_fopenmp_EQ)
      OpenMPFlag = A.Words.front();
  auto Plan = captureOutput(Command, {"-###", OpenMPFlag, "-x", "c", "/dev/null", "-o", "/dev/null"},
                            /*Stderr=*/true);
  if (!Plan)
    return std::nullopt;
  // The link line names it (-lgomp: GCC, clang -fopenmp=libgomp; -lomp;
  // -liomp5) and the directories it is looked up in (-L...).
  llvm::SmallVector<llvm::StringRef> Words;
  llvm::SplitString(*Plan, Words, " \t\n\"");
  std::optional<OpenMPRuntime> Found;
  for (llvm::StringRef Word : Words)
    if (Word == "-lgomp" || Word == "-lomp" || Word == "-liomp5")
      Found = OpenMPRuntime{Word.drop_front(2).str(), ""};
  if (!Found)
    return std::nullopt;
  for (llvm::StringRef Word : Words) {
    llvm::SmallString<256> File;
    if (Word.consume_front("-L"))
      path::append(File, Word, "lib" + Found->Name + ".so");
    if (!File.empty() && fs::exists(File)) {
      Found->File = absolutePath(File);
      break;
    }
  }
  return Found;
}

void Driver::describeCompiler(const CompilerCommand &Command) {
  auto Path = compilerPath(Command.compiler());
  if (!Path)
    return;
  const CompilerIdentity &Id = identity(Command);
  std::string Runtime = "none found";
  if (auto Library = openMPRuntime(Command))
    Runtime = fmt::format("lib{} ({})", Library->Name,
                          Library->File.empty() ? "not found in the link directories" : Library->File);
  llvm::errs() << fmt::format("ompp-instrument: compiler: {} ({}{}{}, _OPENMP {}); OpenMP "
                              "runtime: {}\n",
                              *Path, Id.familyName().str(), Id.Version.empty() ? "" : " ",
                              Id.Version, Id.OpenMPDate.empty() ? "undefined" : Id.OpenMPDate,
                              Runtime);
}

int Driver::run(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                std::optional<llvm::StringRef> StderrFile) {
  if (!compilerPath(Program)) {
    reportError(fmt::format("compiler '{}' not found in PATH", Program.str()));
    return 127;
  }
  std::vector<llvm::StringRef> Argv{Program};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  if (Options.Verbose) {
    llvm::errs() << "ompp-instrument: running:";
    for (llvm::StringRef Word : Argv) {
      // Quoted only where a shell would need it, so the line can be pasted.
      bool Plain = !Word.empty() && llvm::all_of(Word, [](char C) {
        return llvm::isAlnum(C) || llvm::StringRef("_./=:,+-@%").contains(C);
      });
      llvm::errs() << ' ';
      llvm::sys::printArg(llvm::errs(), Word, /*Quote=*/!Plain);
    }
    llvm::errs() << "\n";
  }
  std::string Message;
  bool ExecutionFailed = false;
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt, StderrFile};
  int Status = llvm::sys::ExecuteAndWait(
      CompilerPath, Argv, std::nullopt,
      StderrFile ? llvm::ArrayRef(Redirects) : llvm::ArrayRef<std::optional<llvm::StringRef>>(), 0,
      0, &Message, &ExecutionFailed);
  if (ExecutionFailed || Status < 0) {
    reportError(fmt::format("running {} failed: {}", Program.str(),
                            Message.empty() ? "killed" : Message));
    return 1;
  }
  return Status;
}

int Driver::runOriginal(const CompilerCommand &Command) {
  return run(Command.compiler(), Command.wordsWhere([](const CommandArg &) { return true; }));
}

llvm::Error Driver::checkInputs(const CompilerCommand &Command) const {
  if (auto PCH = Command.precompiledHeaderUse())
    return driverError(fmt::format("precompiled headers are not supported (-include-pch {}): "
                                   "build without the precompiled header",
                                   *PCH));
  for (const CompilerInput &Input : Command.inputs()) {
    if (Input.Kind == InputKind::Header)
      return driverError(fmt::format("{}: building a precompiled header is not supported; "
                                     "compile it without ompp",
                                     Input.Path));
    if (isInstrumentable(Input.Kind) && Input.Path != "-" && !fs::is_regular_file(Input.Path))
      return driverError(fmt::format("{}: no such file", Input.Path));
  }
  return llvm::Error::success();
}

const std::vector<std::string> &Driver::mpiParseFlags(const CompilerCommand &Command) {
  if (!MPIFlags) {
    MPIFlags.emplace();
    if (isMPICompilerName(Command.compiler())) {
      // Open MPI shows its compile flags; MPICH and Intel MPI the whole command.
      auto Shown = captureOutput(Command, {"-showme:compile"}, /*Stderr=*/false);
      if (!Shown)
        Shown = captureOutput(Command, {"-show"}, /*Stderr=*/false);
      if (Shown)
        *MPIFlags = mpiParseFlagsFromShow(*Shown);
    }
  }
  return *MPIFlags;
}

std::vector<std::string> Driver::parseFlags(const CompilerCommand &Command,
                                            const CompilerInput &Input) {
  std::vector<std::string> Flags = Command.clangParseFlags(Input);
  llvm::append_range(Flags, mpiParseFlags(Command));
  const CompilerIdentity &Id = identity(Command);
  if (Id.Kind == CompilerIdentity::Family::GCC) {
    // Pre-C99 C that GCC 12 compiles with warnings (K&R definitions with
    // implicit int, calls to undeclared functions, pointer/integer mixes;
    // common in older benchmark suites) is an error to Clang 16 by default.
    // ompp's parse must accept what the compiler accepts: the compiler
    // itself reports these, as it would without ompp.
    for (const char *Diagnostic : {"implicit-int", "implicit-function-declaration", "int-conversion",
                                   "incompatible-function-pointer-types", "return-type"})
      Flags.push_back(std::string("-Wno-error=") + Diagnostic);
  }
  if (Id.isClang() || Id.OpenMPDate.empty())
    return Flags; // as the compiler parses it, -fopenmp-version=... included
  // The source must see the _OPENMP of the compiler that compiles it
  // (`#if _OPENMP >= 201811` picks the same branch).  The syntax, though,
  // is not that date's: GCC 12 says 201511 (4.5) but accepts most of 5.0
  // and 5.1 (inscan, task reductions, depobj, iterators, ...), which Clang
  // rejects under -fopenmp-version=45.  So Clang parses with the newest
  // version it implements, unless the flags name one.
  Flags.push_back("-U_OPENMP");
  Flags.push_back("-D_OPENMP=" + Id.OpenMPDate);
  if (!Command.hasArg(opts::OPT_fopenmp_version_EQ))
    Flags.push_back("-fopenmp-version=51");
  return Flags;
}

llvm::Expected<instrument::RewriteResult> Driver::rewrite(const CompilerCommand &Command,
                                                          const CompilerInput &Input) {
  std::vector<std::string> Flags = parseFlags(Command, Input);
  instrument::RewriteOptions ForInput = Options.Rewrite;
  // GCC compiles what Clang 16 cannot parse (GNU nested functions, OpenMP
  // that only gcc-12 accepts): such a file is read from its tokens, and the
  // compile checks the result (compileSource).  With Clang as the compiler,
  // Clang's error is the user's.
  ForInput.TextualFallback = identity(Command).Kind == CompilerIdentity::Family::GCC;
  if (ForInput.UnitId.empty())
    ForInput.UnitId = unitIdFor(Command, Input);
  // The rewriter's errors name the file already (Clang's diagnostics, with
  // file:line:col, went to stderr before).
  return Rewrite(Input.Path, Flags, ForInput);
}

std::optional<Driver::Instrumented> Driver::instrument(const CompilerCommand &Command,
                                                       const CompilerInput &Original,
                                                       llvm::StringRef TempDir, size_t Ordinal) {
  // `-x c -` (configure scripts): standard input is read once, into a file
  // named `-` (a path with a '/' is never stdin to the compiler, and `-`
  // still gives the compiler's default output name, -.o).
  CompilerInput Input = Original;
  if (Input.Path == "-") {
    auto Saved = saveStandardInput(TempDir);
    if (!Saved)
      return std::nullopt;
    Input.Path = *Saved;
  }
  auto Result = rewrite(Command, Input);
  if (!Result) {
    std::optional<Instrumented> Unchanged;
    llvm::Error Rest = llvm::handleErrors(
        Result.takeError(), [&](const instrument::FrontEndError &E) {
          // The compiler decides, on the original: a real error is reported
          // once, in its own words (warnings and all), with its status and
          // no output file; what only Clang 16 rejects (GNU nested functions
          // or OpenMP syntax with GCC; OpenMP syntax compiled without
          // -fopenmp) is compiled unchanged, with this warning afterwards.
          std::string First = E.firstError();
          Unchanged = Instrumented{
              .Path = Input.Path,
              .WarningAfterCompile = fmt::format("ompp-instrument: warning: {} is compiled unchanged, without "
                          "measurement: Clang cannot parse it ({})",
                          Original.Path, First)};
        });
    if (Rest)
      reportError(llvm::toString(std::move(Rest)));
    return Unchanged;
  }
  if (Result->AlreadyInstrumented) {
    llvm::errs() << "ompp-instrument: note: " << Original.Path
                 << " is already instrumented; compiling it unchanged\n";
    return Instrumented{.Path = Input.Path};
  }
  if (Result->FirstDirective && !Command.enablesOpenMP())
    llvm::errs() << fmt::format("{}:{}:{}: warning: OpenMP directive, but the file is compiled "
                                "without -fopenmp: the program will run serially (add -fopenmp to "
                                "the compiler flags, e.g. CFLAGS/CXXFLAGS) [ompp]\n",
                                Original.Path, Result->FirstDirective->Line,
                                Result->FirstDirective->Column);
  // The copy keeps the original's name, so the compiler derives the same
  // default output name (x.o) as it would from the original.
  auto Directory = inputDirectory(TempDir, std::to_string(Ordinal));
  if (!Directory)
    return std::nullopt;
  llvm::SmallString<256> Copy(*Directory);
  path::append(Copy, path::filename(Input.Path));
  if (llvm::Error E = writeFileAtomically(Copy, Result->Source)) {
    reportError(llvm::toString(std::move(E)));
    return std::nullopt;
  }
  return Instrumented{.Path = Copy.str().str(),
                      .IsCopy = true,
                      .QuoteDirs = Result->QuoteDirs,
                      .ClangError = Result->ClangError,
                      .Original = Input.Path};
}

std::vector<std::string> Driver::instrumentedCompileFlags(const CompilerInput &Input,
                                                          const Instrumented &Copy) const {
  // ompp's headers as system headers: their inline code and macros (the
  // untimed-task fast path, POMP2_UNTIMED_TASK) must not trip the user's
  // warning flags, as -Werror builds with -Wold-style-cast or -std=c89
  // -pedantic would otherwise fail where the plain build passes.
  std::vector<std::string> Flags{"-isystem", Options.Prefix.IncludeDir};
  if (Copy.IsCopy) {
    std::string OriginalDir = path::parent_path(absolutePath(Input.Path)).str();
    Flags.push_back("-iquote");
    Flags.push_back(OriginalDir);
    Flags.push_back(fmt::format("-fdebug-prefix-map={}={}", path::parent_path(Copy.Path).str(),
                                OriginalDir));
    for (const std::string &Dir : Copy.QuoteDirs) {
      Flags.push_back("-iquote");
      Flags.push_back(Dir);
    }
  }
  return Flags;
}

int Driver::compileSource(const CompilerCommand &Command, Instrumented &Source,
                          llvm::function_ref<std::vector<std::string>(const Instrumented &)> ArgsFor) {
  if (!Source.ClangError.empty()) {
    // The compiler's diagnostics on the copy are shown only if it is kept.
    llvm::SmallString<256> Log(path::parent_path(Source.Path));
    path::append(Log, "compiler.stderr");
    int Status = run(Command.compiler(), ArgsFor(Source), Log.str());
    auto Captured = llvm::MemoryBuffer::getFile(Log);
    llvm::StringRef Diagnostics = Captured ? (*Captured)->getBuffer() : "";
    if (Status == 0) {
      llvm::errs() << Diagnostics;
      if (Options.Verbose)
        llvm::errs() << fmt::format("ompp-instrument: note: {} is instrumented by ompp's textual "
                                    "front end: Clang cannot parse it ({})\n",
                                    Source.Original, Source.ClangError);
      return 0;
    }
    llvm::SmallVector<llvm::StringRef> Lines;
    Diagnostics.split(Lines, '\n');
    auto FirstError = llvm::find_if(Lines, [](llvm::StringRef L) { return L.contains(": error: "); });
    Source = Instrumented{
        .Path = Source.Original,
        .WarningAfterCompile = fmt::format(
            "ompp-instrument: warning: {} is compiled unchanged, without measurement: Clang cannot "
            "parse it ({}), and the compiler rejects ompp's textual instrumentation of it ({})",
            Source.Original, Source.ClangError,
            FirstError == Lines.end() ? fmt::format("status {}", Status) : FirstError->str())};
  }
  if (int Status = run(Command.compiler(), ArgsFor(Source)))
    return Status;
  if (!Source.WarningAfterCompile.empty())
    llvm::errs() << Source.WarningAfterCompile << "\n";
  return 0;
}

int Driver::compileEach(const CompilerCommand &Command, llvm::StringRef TempDir) {
  size_t Compiled = llvm::count_if(Command.inputs(), [](const CompilerInput &I) {
    return I.Kind != InputKind::LinkerInput;
  });
  // `-c -o x.o a.c b.c` is the compiler's error to report, in its words.
  if (Command.output() && Compiled > 1)
    return runOriginal(Command);

  std::vector<std::string> Flags = Command.compileOnlyFlags(/*KeepDependencyFlags=*/true);
  for (const CompilerInput &Input : Command.inputs()) {
    if (Input.Kind == InputKind::LinkerInput)
      continue; // the compiler would ignore it too ("linker input unused")
    Instrumented Source{.Path = Input.Path};
    if (isInstrumentable(Input.Kind)) {
      auto Copy = instrument(Command, Input, TempDir, Input.ArgIndex);
      if (!Copy)
        return 1;
      Source = *Copy;
    }
    auto ArgsFor = [&](const Instrumented &S) {
      std::vector<std::string> Args;
      if (isInstrumentable(Input.Kind))
        Args = instrumentedCompileFlags(Input, S);
      llvm::append_range(Args, Flags);
      if (!Input.LanguageSwitch.empty())
        llvm::append_range(Args, std::vector<std::string>{"-x", Input.LanguageSwitch});
      Args.push_back(S.Path);
      if (Command.output())
        llvm::append_range(Args, std::vector<std::string>{"-o", *Command.output()});
      return Args;
    };
    if (int Status = compileSource(Command, Source, ArgsFor))
      return Status;
    if (Source.IsCopy && Command.writesDependencyFile())
      if (llvm::Error E = replaceInDependencyFile(dependencyFileOf(Command, Input), Source.Path,
                                                  Input.Path)) {
        reportError(llvm::toString(std::move(E)));
        return 1;
      }
  }
  return 0;
}

llvm::Expected<std::vector<std::string>>
Driver::runtimeLinkFlags(const CompilerCommand &Command) {
  if (Options.RuntimeLibrary == "none")
    return std::vector<std::string>{};
  std::vector<std::string> Directories; // flags before the libraries
  std::vector<std::string> Libraries;
  if (!Options.RuntimeLibrary.empty()) {
    if (!fs::exists(Options.RuntimeLibrary))
      return driverError(fmt::format("POMP2 library {} not found", Options.RuntimeLibrary));
    Libraries.push_back(Options.RuntimeLibrary);
  } else {
    const InstallPrefix &Prefix = Options.Prefix;
    if (!fs::exists(Prefix.RuntimeLibrary))
      return driverError(fmt::format("the ompp runtime {} is missing (build target 'ompp', or "
                                     "pass --runtime-library=<POMP2 library>)",
                                     Prefix.RuntimeLibrary));
    Directories = {"-L" + Prefix.LibraryDir, "-Wl,-rpath," + Prefix.LibraryDir};
    // MPI programs: the PMPI wrappers, before the MPI library that an MPI
    // compiler wrapper appends (or that comes later on the line), so that
    // the program's MPI calls reach them first.
    if (buildsMPIProgram(Command)) {
      if (fs::exists(Prefix.LibraryDir + "/libompp_mpi.so"))
        Libraries.push_back("-lompp_mpi");
      else
        llvm::errs() << fmt::format("ompp-instrument: warning: an MPI program, but ompp was built without "
                                    "MPI (no libompp_mpi.so in {}): its MPI calls are not measured\n",
                                    Prefix.LibraryDir);
    }
    Libraries.push_back("-lompp");
  }
  // Linkers that default to --as-needed (GCC's on Debian and Ubuntu) would
  // drop libompp from a program with no instrumented construct (then no
  // profile is written), and the OpenMP runtime from a program whose only
  // OpenMP calls are lock calls (renamed to libompp's POMP2_* wrappers).
  std::vector<std::string> Flags = std::move(Directories);
  Flags.push_back("-Wl,--push-state,--no-as-needed");
  llvm::append_range(Flags, Libraries);
  if (auto OpenMP = openMPRuntime(Command))
    Flags.push_back("-l" + OpenMP->Name);
  Flags.push_back("-Wl,--pop-state");
  return Flags;
}

llvm::Expected<std::string>
Driver::registrationObject(const CompilerCommand &Command, llvm::StringRef TempDir,
                           const std::map<size_t, std::string> &Objects) {
  if (!Options.Rewrite.Opari2Compatible)
    return "";
  std::vector<std::string> Files;
  for (const auto &[Index, Object] : Objects)
    Files.push_back(Object);
  for (const CompilerInput &Input : Command.inputs()) {
    llvm::StringRef Extension = path::extension(Input.Path);
    if (Input.Kind == InputKind::LinkerInput && (Extension == ".o" || Extension == ".a") &&
        fs::exists(Input.Path))
      Files.push_back(Input.Path);
  }
  auto Found = findRegionInitializers(Files, TempDir);
  if (!Found)
    return Found.takeError();
  if (Found->AlreadyProvided)
    return "";
  llvm::SmallString<256> Source(TempDir);
  path::append(Source, "pomp2_init_regions.c");
  if (llvm::Error E = writeFileAtomically(Source, regionInitSource(*Found)))
    return E;
  std::string Object = (Source.str().drop_back(2) + ".o").str();
  if (int Status = run(Command.compiler(), {"-x", "c", "-c", Source.str().str(), "-o", Object}))
    return driverError(fmt::format("compiling the POMP2 region registration failed (status {})",
                                   Status));
  return Object;
}

int Driver::compileAndLink(const CompilerCommand &Command, llvm::StringRef TempDir) {
  auto RuntimeFlags = runtimeLinkFlags(Command);
  if (!RuntimeFlags) {
    reportError(llvm::toString(RuntimeFlags.takeError()));
    return 1;
  }
  std::vector<std::string> CompileFlags = Command.compileOnlyFlags(/*KeepDependencyFlags=*/false);
  // Argument index of each instrumented source -> its object.
  std::map<size_t, std::string> Objects;
  for (const CompilerInput &Input : Command.inputs()) {
    if (!isInstrumentable(Input.Kind))
      continue;
    // The link line below puts the object where this argument was.
    assert(Command.args()[Input.ArgIndex].ArgRole == CommandArg::Role::Input);
    auto Source = instrument(Command, Input, TempDir, Input.ArgIndex);
    if (!Source)
      return 1;
    auto Directory = inputDirectory(TempDir, std::to_string(Input.ArgIndex));
    if (!Directory)
      return 1;
    llvm::SmallString<256> Object(*Directory);
    path::append(Object, path::stem(Input.Path));
    Object += ".o";
    auto ArgsFor = [&](const Instrumented &S) {
      std::vector<std::string> Args = instrumentedCompileFlags(Input, S);
      llvm::append_range(Args, CompileFlags);
      if (!Input.LanguageSwitch.empty())
        llvm::append_range(Args, std::vector<std::string>{"-x", Input.LanguageSwitch});
      llvm::append_range(Args, std::vector<std::string>{"-c", S.Path, "-o", Object.str().str()});
      return Args;
    };
    if (int Status = compileSource(Command, *Source, ArgsFor))
      return Status;
    Objects[Input.ArgIndex] = Object.str().str();
  }

  std::vector<std::string> Link;
  std::string LanguageSwitch;
  auto Registration = registrationObject(Command, TempDir, Objects);
  if (!Registration) {
    reportError(llvm::toString(Registration.takeError()));
    return 1;
  }
  for (size_t I = 0; I < Command.args().size(); ++I) {
    const CommandArg &A = Command.args()[I];
    if (A.ArgRole == CommandArg::Role::LanguageSwitch)
      LanguageSwitch = A.Words.back();
    auto Object = Objects.find(I);
    if (Object == Objects.end()) {
      llvm::append_range(Link, A.Words);
      continue;
    }
    // An object under `-x c` would be read as C source: switch back around it.
    bool UnderSwitch = !LanguageSwitch.empty() && LanguageSwitch != "none";
    if (UnderSwitch)
      llvm::append_range(Link, std::vector<std::string>{"-x", "none"});
    Link.push_back(Object->second);
    if (UnderSwitch)
      llvm::append_range(Link, std::vector<std::string>{"-x", LanguageSwitch});
  }
  if (!Registration->empty()) {
    if (!LanguageSwitch.empty())
      llvm::append_range(Link, std::vector<std::string>{"-x", "none"});
    Link.push_back(*Registration);
  }
  if (!Command.enablesOpenMP())
    Link.push_back("-fopenmp");
  llvm::append_range(Link, *RuntimeFlags);
  return run(Command.compiler(), Link);
}

int Driver::build(const CompilerCommand &Command) {
  switch (Command.mode()) {
  case CommandMode::Preprocess:
  case CommandMode::SyntaxOnly:
  case CommandMode::Query:
    return runOriginal(Command);
  default:
    break;
  }
  if (llvm::Error E = checkInputs(Command)) {
    reportError(llvm::toString(std::move(E)));
    return 1;
  }
  auto Temp = TempDirectory::create("ompp-instrument");
  if (!Temp) {
    reportError(llvm::toString(Temp.takeError()));
    return 1;
  }
  if (Options.KeepTemps) {
    Temp->keep();
    llvm::errs() << "ompp-instrument: keeping temporary files in " << Temp->path() << "\n";
  }
  if (Options.Verbose)
    describeCompiler(Command);
  const int Status = Command.mode() == CommandMode::Link ? compileAndLink(Command, Temp->path())
                                                         : compileEach(Command, Temp->path());
  if (Status != 0)
    noteFlagsClangRejects(Command);
  return Status;
}

void Driver::noteFlagsClangRejects(const CompilerCommand &Command) {
  // A Makefile written for GCC (-ftree-vectorizer-verbose=2, -fipa-pta, ...)
  // fails with Clang, ompp's default compiler, with no word of ompp in the
  // error: say which compiler ran and how to pick GCC.
  const std::vector<std::string> Unknown =
      Command.wordsWhere([](const CommandArg &A) { return A.ArgRole == CommandArg::Role::UnknownFlag; });
  if (Unknown.empty() || !identity(Command).isClang())
    return;
  llvm::errs() << fmt::format("ompp-instrument: note: the compiler is {}, which does not know {}; "
                              "for a build written for GCC let ompp wrap gcc or g++ "
                              "(--compiler=g++, or OMPP_CC=gcc / OMPP_CXX=g++)\n",
                              Command.compiler().str(), fmt::join(Unknown, " "));
}

int Driver::emitSources(const CompilerCommand &Command, llvm::StringRef OutputPath) {
  if (llvm::Error E = checkInputs(Command)) {
    reportError(llvm::toString(std::move(E)));
    return 1;
  }
  std::vector<const CompilerInput *> Sources;
  for (const CompilerInput &Input : Command.inputs())
    if (isInstrumentable(Input.Kind))
      Sources.push_back(&Input);
  if (Sources.empty()) {
    reportError("no C or C++ source file to instrument");
    return 1;
  }
  if (!OutputPath.empty() && Sources.size() > 1) {
    reportError("-o names one file, but the command has several sources");
    return 1;
  }
  std::string Text;
  for (const CompilerInput *Input : Sources) {
    if (!OutputPath.empty() && fs::equivalent(Input->Path, OutputPath)) {
      reportError(fmt::format("{}: refusing to overwrite the source file", Input->Path));
      return 1;
    }
    auto Result = rewrite(Command, *Input);
    if (!Result) {
      llvm::Error Rest = llvm::handleErrors(
          Result.takeError(),
          [](const instrument::FrontEndError &E) { llvm::errs() << E.diagnostics(); });
      if (Rest)
        reportError(llvm::toString(std::move(Rest)));
      return 1;
    }
    Text += Result->Source;
  }
  if (OutputPath.empty() || OutputPath == "-") {
    llvm::outs() << Text;
    llvm::outs().flush();
    if (llvm::outs().has_error()) {
      std::string Message = llvm::outs().error().message();
      llvm::outs().clear_error();
      reportError(fmt::format("cannot write to standard output: {}", Message));
      return 1;
    }
    return 0;
  }
  if (llvm::Error E = writeFileAtomically(OutputPath, Text)) {
    reportError(llvm::toString(std::move(E)));
    return 1;
  }
  return 0;
}

} // namespace ompp::driver
