//===- CompilerCommand.cpp - A real compiler command line, classified -----===//

#include "CompilerCommand.h"

#include "clang/Driver/Options.h"
#include "clang/Driver/ToolChain.h"
#include "clang/Driver/Types.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <fmt/format.h>

#include <cassert>

namespace ompp::driver {

namespace opts = clang::driver::options;
namespace types = clang::driver::types;
using llvm::opt::Arg;

namespace {

llvm::Error commandError(std::string Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

InputKind kindOfType(types::ID Type) {
  if (Type == types::TY_C)
    return InputKind::CSource;
  if (Type == types::TY_CXX)
    return InputKind::CXXSource;
  if (Type == types::TY_INVALID || Type == types::TY_Object)
    return InputKind::LinkerInput;
  if (types::onlyPrecompileType(Type))
    return InputKind::Header;
  return InputKind::OtherSource;
}

/// Whether the compiler compiles C sources as C++: a C++ driver by its name
/// (clang++, g++, c++, with a version or target around it, as Clang's driver
/// reads names) or by --driver-mode=g++.  Clang and GCC both do, without -x.
bool isCxxDriver(llvm::StringRef Compiler, const llvm::opt::InputArgList &Parsed) {
  if (const Arg *Mode = Parsed.getLastArg(opts::OPT_driver_mode))
    return llvm::StringRef(Mode->getValue()) == "g++";
  const char *Mode = clang::driver::ToolChain::getTargetAndModeFromProgramName(
                         llvm::sys::path::filename(Compiler))
                         .DriverMode;
  return Mode && llvm::StringRef(Mode) == "--driver-mode=g++";
}

InputKind kindOfInput(llvm::StringRef Path, llvm::StringRef LanguageSwitch, bool CxxDriver) {
  if (!LanguageSwitch.empty() && LanguageSwitch != "none")
    return kindOfType(types::lookupTypeForTypeSpecifier(LanguageSwitch.str().c_str()));
  if (Path == "-") // stdin needs -x, which the compiler itself will demand
    return InputKind::OtherSource;
  llvm::StringRef Extension = llvm::sys::path::extension(Path);
  if (Extension.empty())
    return InputKind::LinkerInput;
  InputKind Kind = kindOfType(types::lookupTypeForExtension(Extension.drop_front()));
  return Kind == InputKind::CSource && CxxDriver ? InputKind::CXXSource : Kind;
}

bool isDependencyOption(const llvm::opt::Option &O) {
  return O.matches(opts::OPT_MD) || O.matches(opts::OPT_MMD) || O.matches(opts::OPT_MF) ||
         O.matches(opts::OPT_MT) || O.matches(opts::OPT_MQ) || O.matches(opts::OPT_MP) ||
         O.matches(opts::OPT_MG) || O.matches(opts::OPT_MV) || O.matches(opts::OPT_MJ);
}

bool isLinkerOnlyOption(const llvm::opt::Option &O) {
  return O.hasFlag(opts::LinkerInput) || O.matches(opts::OPT_Link_Group) ||
         O.matches(opts::OPT_L) || O.matches(opts::OPT_shared) ||
         O.matches(opts::OPT_static) || O.matches(opts::OPT_rdynamic) ||
         O.matches(opts::OPT_Wl_COMMA) || O.matches(opts::OPT_Xlinker);
}

CommandArg::Role roleOf(const Arg &A) {
  const llvm::opt::Option &O = A.getOption();
  if (O.getKind() == llvm::opt::Option::InputClass)
    return CommandArg::Role::Input;
  if (O.getKind() == llvm::opt::Option::UnknownClass)
    return CommandArg::Role::UnknownFlag;
  if (O.matches(opts::OPT_o))
    return CommandArg::Role::Output;
  if (O.matches(opts::OPT_x))
    return CommandArg::Role::LanguageSwitch;
  if (isDependencyOption(O))
    return CommandArg::Role::Dependency;
  if (isLinkerOnlyOption(O))
    return CommandArg::Role::LinkerOnly;
  return CommandArg::Role::Flag;
}

llvm::Expected<std::vector<std::string>> expandResponseFiles(llvm::ArrayRef<std::string> Argv) {
  llvm::BumpPtrAllocator Allocator;
  llvm::cl::ExpansionContext Expander(Allocator, llvm::cl::TokenizeGNUCommandLine);
  llvm::SmallVector<const char *, 64> Words;
  for (const std::string &Word : Argv)
    Words.push_back(Word.c_str());
  if (llvm::Error E = Expander.expandResponseFiles(Words))
    return commandError(fmt::format("cannot expand response file: {}", llvm::toString(std::move(E))));
  return std::vector<std::string>(Words.begin(), Words.end());
}

} // namespace

llvm::StringRef languageName(InputKind Kind) {
  return Kind == InputKind::CXXSource ? "c++" : "c";
}

llvm::Expected<CompilerCommand> CompilerCommand::parse(llvm::ArrayRef<std::string> Argv) {
  if (Argv.empty() || Argv.front().empty())
    return commandError("no compiler given (expected: ompp-instrument [options] -- <compiler> <args...>)");
  auto Expanded = expandResponseFiles(Argv.drop_front());
  if (!Expanded)
    return Expanded.takeError();

  CompilerCommand Command;
  Command.Compiler = Argv.front();

  std::vector<const char *> Words;
  for (const std::string &Word : *Expanded)
    Words.push_back(Word.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  const llvm::opt::OptTable &Table = clang::driver::getDriverOptTable();
  // As the GCC-compatible driver does: no cl.exe-style options (otherwise an
  // absolute path such as /work/a.c reads as cl's /w), no DXC/Flang-only ones.
  const unsigned Excluded = opts::NoDriverOption | opts::CLOption | opts::CLDXCOption |
                            opts::DXCOption | opts::FlangOnlyOption;
  llvm::opt::InputArgList Parsed =
      Table.ParseArgs(Words, MissingIndex, MissingCount, /*FlagsToInclude=*/0, Excluded);
  if (MissingCount > 0)
    return commandError(fmt::format("compiler option '{}' is missing its value", Words[MissingIndex]));

  // Each Arg records the argv index it starts at; it spans up to the next one.
  std::vector<const Arg *> InOrder(Parsed.begin(), Parsed.end());
  std::string LanguageSwitch;
  const bool CxxDriver = isCxxDriver(Command.Compiler, Parsed);
  for (size_t I = 0; I < InOrder.size(); ++I) {
    const Arg &A = *InOrder[I];
    size_t Begin = A.getIndex();
    size_t End = I + 1 < InOrder.size() ? InOrder[I + 1]->getIndex() : Words.size();
    assert(Begin < End && End <= Words.size() && "each argument has its own argv words");
    CommandArg Entry;
    Entry.ArgRole = roleOf(A);
    Entry.OptionID = A.getOption().getID();
    Entry.Words.assign(Expanded->begin() + Begin, Expanded->begin() + End);

    switch (Entry.ArgRole) {
    case CommandArg::Role::Input: {
      CompilerInput Input;
      Input.Path = A.getValue();
      Input.LanguageSwitch = LanguageSwitch;
      Input.Kind = kindOfInput(Input.Path, LanguageSwitch, CxxDriver);
      Input.ArgIndex = Command.Args.size();
      Command.Inputs.push_back(std::move(Input));
      break;
    }
    case CommandArg::Role::LanguageSwitch:
      LanguageSwitch = A.getValue();
      break;
    case CommandArg::Role::Output:
      Command.Output = A.getValue();
      break;
    default:
      break;
    }
    Command.Args.push_back(std::move(Entry));
  }

  // The same precedence as the compilers: -E and -M/-MM stop earliest.
  // `-###` only prints what the compiler would run.
  if (Command.Inputs.empty() || Parsed.hasArg(opts::OPT__HASH_HASH_HASH))
    Command.Mode = CommandMode::Query;
  else if (Parsed.hasArg(opts::OPT_E) || Parsed.hasArg(opts::OPT_M) || Parsed.hasArg(opts::OPT_MM))
    Command.Mode = CommandMode::Preprocess;
  else if (Parsed.hasArg(opts::OPT_fsyntax_only))
    Command.Mode = CommandMode::SyntaxOnly;
  else if (Parsed.hasArg(opts::OPT_S))
    Command.Mode = CommandMode::Assemble;
  else if (Parsed.hasArg(opts::OPT_c))
    Command.Mode = CommandMode::Compile;
  else
    Command.Mode = CommandMode::Link;
  return Command;
}

bool CompilerCommand::hasArg(unsigned OptionID) const {
  return llvm::any_of(Args, [&](const CommandArg &A) {
    return clang::driver::getDriverOptTable().getOption(A.OptionID).matches(OptionID);
  });
}

std::optional<std::string> CompilerCommand::lastValue(unsigned OptionID) const {
  std::optional<std::string> Value;
  for (const CommandArg &A : Args) {
    if (!clang::driver::getDriverOptTable().getOption(A.OptionID).matches(OptionID))
      continue;
    // Joined (`-MFdep.d`) or separate (`-MF dep.d`): the value is what
    // follows the option's spelling.
    const llvm::opt::Option O = clang::driver::getDriverOptTable().getOption(A.OptionID);
    std::string Prefixed = (O.getPrefix() + O.getName()).str();
    if (A.Words.size() > 1)
      Value = A.Words.back();
    else
      Value = llvm::StringRef(A.Words.front()).drop_front(Prefixed.size()).str();
  }
  return Value;
}

bool CompilerCommand::enablesOpenMP() const {
  bool Enabled = false;
  for (const CommandArg &A : Args) {
    const llvm::opt::Option O = clang::driver::getDriverOptTable().getOption(A.OptionID);
    if (O.matches(opts::OPT_fopenmp) || O.matches(opts::OPT_fopenmp_EQ))
      Enabled = true;
    else if (O.matches(opts::OPT_fno_openmp))
      Enabled = false;
  }
  return Enabled;
}

bool CompilerCommand::writesDependencyFile() const {
  return hasArg(opts::OPT_MD) || hasArg(opts::OPT_MMD);
}

std::optional<std::string> CompilerCommand::precompiledHeaderUse() const {
  if (auto Direct = lastValue(opts::OPT_include_pch))
    return Direct;
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I].OptionID == opts::OPT_Xclang && Args[I].Words.back() == "-include-pch")
      return Args[I + 1].OptionID == opts::OPT_Xclang ? Args[I + 1].Words.back() : "";
  return std::nullopt;
}

std::vector<std::string> CompilerCommand::clangParseFlags(const CompilerInput &Input) const {
  std::vector<std::string> Flags = wordsWhere([](const CommandArg &A) {
    return A.ArgRole == CommandArg::Role::Flag && A.OptionID != opts::OPT_c &&
           A.OptionID != opts::OPT_S && A.OptionID != opts::OPT_save_temps &&
           A.OptionID != opts::OPT_save_temps_EQ && A.OptionID != opts::OPT_pipe;
  });
  // GCC-only warning flags reach Clang as -W<anything>; they must not turn
  // into diagnostics of ompp's own parse.
  Flags.push_back("-Wno-unknown-warning-option");
  Flags.push_back("-Qunused-arguments");
  Flags.push_back("-x");
  Flags.push_back(languageName(Input.Kind).str());
  return Flags;
}

std::vector<std::string> CompilerCommand::compileOnlyFlags(bool KeepDependencyFlags) const {
  return wordsWhere([&](const CommandArg &A) {
    switch (A.ArgRole) {
    case CommandArg::Role::Flag:
    case CommandArg::Role::UnknownFlag:
      return true;
    case CommandArg::Role::Dependency:
      return KeepDependencyFlags;
    default:
      return false;
    }
  });
}

} // namespace ompp::driver
