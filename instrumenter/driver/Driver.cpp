//===- Driver.cpp - Instrument, then run the real compiler ----------------===//

#include "Driver.h"

#include "RegionRegistration.h"
#include "TempDirectory.h"

#include "clang/Driver/Options.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

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

int Driver::run(llvm::StringRef Program, llvm::ArrayRef<std::string> Args) {
  if (CompilerPath.empty()) {
    if (Program.contains('/')) {
      CompilerPath = Program.str();
    } else if (auto Found = llvm::sys::findProgramByName(Program)) {
      CompilerPath = *Found;
    } else {
      reportError(fmt::format("compiler '{}' not found in PATH", Program.str()));
      return 127;
    }
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
  int Status = llvm::sys::ExecuteAndWait(CompilerPath, Argv, std::nullopt, {}, 0, 0, &Message,
                                         &ExecutionFailed);
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
    if (isInstrumentable(Input.Kind) && !fs::is_regular_file(Input.Path))
      return driverError(fmt::format("{}: no such file", Input.Path));
  }
  return llvm::Error::success();
}

llvm::Expected<instrument::RewriteResult> Driver::rewrite(const CompilerCommand &Command,
                                                          const CompilerInput &Input) {
  std::vector<std::string> Flags = Command.clangParseFlags(Input);
  instrument::RewriteOptions ForInput = Options.Rewrite;
  if (ForInput.UnitId.empty())
    ForInput.UnitId = unitIdFor(Command, Input);
  // The rewriter's errors name the file already (Clang's diagnostics, with
  // file:line:col, went to stderr before).
  return Rewrite(Input.Path, Flags, ForInput);
}

llvm::Expected<Driver::Instrumented> Driver::instrument(const CompilerCommand &Command,
                                                        const CompilerInput &Input,
                                                        llvm::StringRef TempDir, size_t Ordinal) {
  auto Result = rewrite(Command, Input);
  if (!Result)
    return Result.takeError();
  if (Result->AlreadyInstrumented) {
    llvm::errs() << "ompp-instrument: note: " << Input.Path
                 << " is already instrumented; compiling it unchanged\n";
    return Instrumented{Input.Path, false};
  }
  // One subdirectory per input keeps equal file names apart (a/x.c, b/x.c)
  // while the copy keeps the original's name, so the compiler derives the
  // same default output name (x.o) as it would from the original.
  llvm::SmallString<256> Copy(TempDir);
  path::append(Copy, std::to_string(Ordinal));
  if (std::error_code EC = fs::create_directories(Copy, true, fs::owner_all))
    return driverError(fmt::format("cannot create {}: {}", Copy.str().str(), EC.message()));
  path::append(Copy, path::filename(Input.Path));
  if (llvm::Error E = writeFileAtomically(Copy, Result->Source))
    return E;
  return Instrumented{Copy.str().str(), true, Result->QuoteDirs};
}

std::vector<std::string> Driver::instrumentedCompileFlags(const CompilerInput &Input,
                                                          const Instrumented &Copy) const {
  std::vector<std::string> Flags{"-I" + Options.Prefix.IncludeDir};
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
    std::vector<std::string> Args;
    Instrumented Source{Input.Path, false};
    if (isInstrumentable(Input.Kind)) {
      auto Copy = instrument(Command, Input, TempDir, Input.ArgIndex);
      if (!Copy) {
        reportError(llvm::toString(Copy.takeError()));
        return 1;
      }
      Source = *Copy;
      Args = instrumentedCompileFlags(Input, Source);
    }
    llvm::append_range(Args, Flags);
    if (!Input.LanguageSwitch.empty())
      llvm::append_range(Args, std::vector<std::string>{"-x", Input.LanguageSwitch});
    Args.push_back(Source.Path);
    if (Command.output())
      llvm::append_range(Args, std::vector<std::string>{"-o", *Command.output()});
    if (int Status = run(Command.compiler(), Args))
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

llvm::Expected<std::vector<std::string>> Driver::runtimeLinkFlags() const {
  if (Options.RuntimeLibrary == "none")
    return std::vector<std::string>{};
  if (!Options.RuntimeLibrary.empty()) {
    if (!fs::exists(Options.RuntimeLibrary))
      return driverError(fmt::format("POMP2 library {} not found", Options.RuntimeLibrary));
    return std::vector<std::string>{Options.RuntimeLibrary};
  }
  const InstallPrefix &Prefix = Options.Prefix;
  if (!fs::exists(Prefix.RuntimeLibrary))
    return driverError(fmt::format("the ompp runtime {} is missing (build target 'ompp', or pass "
                                   "--runtime-library=<POMP2 library>)",
                                   Prefix.RuntimeLibrary));
  return std::vector<std::string>{"-L" + Prefix.LibraryDir, "-Wl,-rpath," + Prefix.LibraryDir,
                                  "-lompp"};
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
  auto RuntimeFlags = runtimeLinkFlags();
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
    auto Source = instrument(Command, Input, TempDir, Input.ArgIndex);
    if (!Source) {
      reportError(llvm::toString(Source.takeError()));
      return 1;
    }
    llvm::SmallString<256> Object(TempDir);
    path::append(Object, std::to_string(Input.ArgIndex), path::stem(Input.Path));
    Object += ".o";
    std::vector<std::string> Args = instrumentedCompileFlags(Input, *Source);
    llvm::append_range(Args, CompileFlags);
    if (!Input.LanguageSwitch.empty())
      llvm::append_range(Args, std::vector<std::string>{"-x", Input.LanguageSwitch});
    llvm::append_range(Args, std::vector<std::string>{"-c", Source->Path, "-o", Object.str().str()});
    if (int Status = run(Command.compiler(), Args))
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
  if (Command.mode() == CommandMode::Link)
    return compileAndLink(Command, Temp->path());
  return compileEach(Command, Temp->path());
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
      reportError(llvm::toString(Result.takeError()));
      return 1;
    }
    Text += Result->Source;
  }
  if (OutputPath.empty() || OutputPath == "-") {
    llvm::outs() << Text;
    llvm::outs().flush();
    return 0;
  }
  if (llvm::Error E = writeFileAtomically(OutputPath, Text)) {
    reportError(llvm::toString(std::move(E)));
    return 1;
  }
  return 0;
}

} // namespace ompp::driver
