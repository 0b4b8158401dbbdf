//===- CompilerCommand.h - A real compiler command line, classified -------===//
//
// Responsibilities: take the command a build system runs (`cc -c a.c -o a.o`,
// `g++ @flags.rsp x.cpp y.o -o app`, ...), expand its response files, and
// split it into what ompp-instrument needs to know:
//   - the compiler and what the command does (link, -c, -S, -E/-M, a query
//     such as --version);
//   - every input with its language (by extension, or by the `-x` in force);
//   - the flags, each classified as an input, the output (-o), linker-only,
//     dependency-file (-M*), a language override (-x), or an ordinary flag.
//
// Flags are recognised with Clang's own driver option table, which knows the
// spelling and the arity of every GCC and Clang flag, so `-MF dep.d`,
// `-include x.h` or `-Xlinker -z -Xlinker now` are never mistaken for inputs.
// Flags unknown to Clang (GCC-only ones) are kept for the real compiler but
// left out of the flags Clang parses the source with.
//
// This layer only classifies; it runs nothing and writes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_COMPILERCOMMAND_H
#define OMPP_DRIVER_COMPILERCOMMAND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace ompp::driver {

/// What a compiler command produces.
enum class CommandMode {
  Link,       ///< no -c/-S/-E: compiles its sources and links
  Compile,    ///< -c
  Assemble,   ///< -S
  Preprocess, ///< -E, -M, -MM: ompp passes these through unchanged
  SyntaxOnly, ///< -fsyntax-only: passed through unchanged
  Query,      ///< no inputs (--version, -dumpmachine, -print-*, ...), or -###
};

/// How ompp treats one input file.
enum class InputKind {
  CSource,        ///< instrumented, parsed as C
  CXXSource,      ///< instrumented, parsed as C++
  OtherSource,    ///< compiled as it is (assembly, Objective-C, .i, ...)
  LinkerInput,    ///< objects, archives, shared libraries
  Header,         ///< would build a precompiled header: refused
};

/// One argument as the user wrote it: an option with its values (possibly
/// spread over several argv words, as in `-o out.o`) or an input.
struct CommandArg {
  enum class Role {
    Flag,           ///< passed to the compiler, and to Clang when parsing
    UnknownFlag,    ///< not a Clang flag: for the real compiler only
    Input,          ///< a file (or `-`) to compile or link
    Output,         ///< -o <file>
    LanguageSwitch, ///< -x <language>
    LinkerOnly,     ///< -l, -L, -Wl,..., -shared, ...: meaningless when compiling
    Dependency,     ///< -MD, -MMD, -MF, -MT, -MQ, -MP, ...: build-system output
  };
  Role ArgRole = Role::Flag;
  std::vector<std::string> Words; ///< the argv words, exactly as given
  unsigned OptionID = 0;          ///< clang::driver::options::ID
};

struct CompilerInput {
  std::string Path;
  InputKind Kind = InputKind::OtherSource;
  size_t ArgIndex = 0;       ///< position in CompilerCommand::args()
  std::string LanguageSwitch; ///< the `-x` value in force, if any
};

class CompilerCommand {
public:
  /// Parses \p Argv (Argv[0] is the compiler).  Response files (`@file`) are
  /// expanded first.  Fails with a one-line message on an unreadable
  /// response file or a flag missing its value.
  static llvm::Expected<CompilerCommand> parse(llvm::ArrayRef<std::string> Argv);

  llvm::StringRef compiler() const { return Compiler; }
  CommandMode mode() const { return Mode; }
  llvm::ArrayRef<CommandArg> args() const { return Args; }
  llvm::ArrayRef<CompilerInput> inputs() const { return Inputs; }
  const std::optional<std::string> &output() const { return Output; }
  bool hasArg(unsigned OptionID) const;
  /// The value of the last occurrence of \p OptionID, if any.
  std::optional<std::string> lastValue(unsigned OptionID) const;
  /// -fopenmp or -fopenmp=<lib> (but not -fno-openmp after it).
  bool enablesOpenMP() const;
  /// Whether any dependency-file flag (-MD, -MMD) asks for a .d file.
  bool writesDependencyFile() const;
  /// `-include-pch`, also behind -Xclang: ompp cannot instrument against a PCH.
  std::optional<std::string> precompiledHeaderUse() const;

  /// The command, words in order, with every argument for which \p Keep
  /// returns false left out.
  template <typename Pred> std::vector<std::string> wordsWhere(Pred Keep) const {
    std::vector<std::string> Result;
    for (const CommandArg &A : Args)
      if (Keep(A))
        Result.insert(Result.end(), A.Words.begin(), A.Words.end());
    return Result;
  }

  /// The flags Clang should parse \p Input with: every Clang-known flag that
  /// matters for compiling (no inputs, output, linker or dependency flags,
  /// no GCC-only flags), with the input's language made explicit.
  std::vector<std::string> clangParseFlags(const CompilerInput &Input) const;

  /// The flags for compiling one input on its own (`-c`): everything except
  /// inputs, -o, -x and linker-only flags.  Dependency flags are kept only if
  /// \p KeepDependencyFlags.
  std::vector<std::string> compileOnlyFlags(bool KeepDependencyFlags) const;

private:
  std::string Compiler;
  CommandMode Mode = CommandMode::Query;
  std::vector<CommandArg> Args;
  std::vector<CompilerInput> Inputs;
  std::optional<std::string> Output;
};

/// The language name `-x` takes for an instrumented input ("c" / "c++").
llvm::StringRef languageName(InputKind Kind);

/// Whether \p Kind is a C or C++ source, i.e. one ompp instruments.
inline bool isInstrumentable(InputKind Kind) {
  return Kind == InputKind::CSource || Kind == InputKind::CXXSource;
}

} // namespace ompp::driver

#endif // OMPP_DRIVER_COMPILERCOMMAND_H
