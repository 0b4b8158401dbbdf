//===- Driver.h - Instrument, then run the real compiler ------------------===//
//
// Responsibilities: turn one classified compiler command into the commands
// that build the same outputs from instrumented sources.
//
//   -E, -M, -MM, -fsyntax-only, queries  -> the original command, unchanged
//   -c / -S                              -> per C/C++ input: rewrite it into
//        the private temporary directory (same file name, so the compiler
//        derives the same default output name), then compile that copy with
//        -I<prefix>/include -iquote <directory of the original> and the
//        original flags and -o; dependency files are made to name the
//        original source
//   link                                 -> each C/C++ input compiled as
//        above into a temporary object; the original link command with those
//        objects in place of the sources, plus -fopenmp (if missing) and the
//        runtime: -L<prefix>/lib -Wl,-rpath,<prefix>/lib -lompp; with
//        --opari2-compatible also OPARI2's region registration (init step)
//
// The exit status is the first failing command's (or 0).  Nothing is written
// into the source tree.  A file Clang cannot parse is compiled unchanged: the
// compiler's own diagnostics and status if it rejects it too, else one
// warning.  The rewriting itself is a function passed in, so this layer
// depends only on the rewriter's interface.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_DRIVER_H
#define OMPP_DRIVER_DRIVER_H

#include "CompilerCommand.h"
#include "CompilerIdentity.h"
#include "InstallPrefix.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rewriter/Rewriter.h"

namespace ompp::driver {

/// instrument::rewriteFile, or a stand-in with its signature.
using RewriteFunction = llvm::Expected<instrument::RewriteResult> (*)(
    llvm::StringRef, llvm::ArrayRef<std::string>, const instrument::RewriteOptions &);

struct DriverOptions {
  instrument::RewriteOptions Rewrite;
  InstallPrefix Prefix;
  bool KeepTemps = false;
  bool Verbose = false;
  /// Empty: <prefix>/lib/libompp.so.  "none": link no POMP2 library.
  /// Anything else: that library file (e.g. OPARI2's /usr/lib/libpomp.a).
  std::string RuntimeLibrary;
};

class Driver {
public:
  Driver(DriverOptions Options, RewriteFunction Rewrite)
      : Options(std::move(Options)), Rewrite(Rewrite) {}

  /// Builds what \p Command builds, from instrumented sources.  Returns the
  /// process exit status.
  int build(const CompilerCommand &Command);

  /// Writes the instrumented form of every C/C++ input of \p Command to
  /// \p OutputPath (atomically), or to stdout if it is empty.
  int emitSources(const CompilerCommand &Command, llvm::StringRef OutputPath);

private:
  struct Instrumented {
    std::string Path{};      ///< what to compile: the rewritten copy, or the original
    bool IsCopy = false;     ///< Path is a rewritten copy in the temporary directory
    std::vector<std::string> QuoteDirs{}; ///< `-iquote` directories the copy needs
    /// Printed once the compiler has accepted the file (a file compiled
    /// unchanged because Clang cannot parse it): if the compiler rejects it
    /// too, its own diagnostics say everything.
    std::string WarningAfterCompile{};
    /// The copy came from the textual front end (Clang's first error here):
    /// if the compiler rejects it, Original is compiled unchanged instead.
    std::string ClangError{};
    std::string Original{};
  };

  /// The compiler of \p Command (probed once): Clang or not, its _OPENMP.
  const CompilerIdentity &identity(const CompilerCommand &Command);
  struct OpenMPRuntime {
    std::string Name; ///< "gomp", "omp" or "iomp5" (as in -l<Name>)
    std::string File; ///< lib<Name>.so in the link directories ("": not found)
  };
  /// The OpenMP runtime a link with \p Command's OpenMP flag uses, as the
  /// compiler's own `-###` says.
  std::optional<OpenMPRuntime> openMPRuntime(const CompilerCommand &Command);
  /// --verbose: which compiler and which OpenMP runtime are used.
  void describeCompiler(const CompilerCommand &Command);
  /// After a failed compile: names the flags Clang does not know when the
  /// compiler is Clang, and how to let ompp wrap GCC instead.
  void noteFlagsClangRejects(const CompilerCommand &Command);
  /// An MPI wrapper's include flags for Clang's parse (probed once, see
  /// MPICompiler.h); empty for any other compiler.
  const std::vector<std::string> &mpiParseFlags(const CompilerCommand &Command);
  /// The flags Clang parses \p Input with: the compile flags, an MPI
  /// wrapper's include directories, and for another compiler its _OPENMP.
  std::vector<std::string> parseFlags(const CompilerCommand &Command, const CompilerInput &Input);
  llvm::Expected<instrument::RewriteResult> rewrite(const CompilerCommand &Command,
                                                    const CompilerInput &Input);
  /// Rewrites \p Input into \p TempDir; what to compile instead of it.
  /// Reports its errors itself: nullopt means the command has failed.
  std::optional<Instrumented> instrument(const CompilerCommand &Command,
                                         const CompilerInput &Input, llvm::StringRef TempDir,
                                         size_t Ordinal);
  /// Compiles Source with the arguments ArgsFor gives for it.  A copy from
  /// the textual front end is checked: if the compiler rejects it, the
  /// original is compiled unchanged (Source says so afterwards) and the
  /// build goes on.
  int compileSource(const CompilerCommand &Command, Instrumented &Source,
                    llvm::function_ref<std::vector<std::string>(const Instrumented &)> ArgsFor);
  int compileEach(const CompilerCommand &Command, llvm::StringRef TempDir);
  int compileAndLink(const CompilerCommand &Command, llvm::StringRef TempDir);
  /// --opari2-compatible links: OPARI2's init step over the link inputs,
  /// compiled; "" when not needed (or the inputs already provide it).
  llvm::Expected<std::string> registrationObject(const CompilerCommand &Command,
                                                 llvm::StringRef TempDir,
                                                 const std::map<size_t, std::string> &Objects);
  /// The flags that let an instrumented copy of \p Input compile as the
  /// original would (ompp's headers, the original's directory for "..."
  /// includes, debug info naming the original directory).
  std::vector<std::string> instrumentedCompileFlags(const CompilerInput &Input,
                                                    const Instrumented &Copy) const;
  llvm::Expected<std::vector<std::string>> runtimeLinkFlags(const CompilerCommand &Command);
  /// The compiler's path (PATH searched once); nullopt if not found.
  std::optional<std::string> compilerPath(llvm::StringRef Program);
  /// Runs the compiler with \p Args; its stdout (or stderr) if it succeeds.
  std::optional<std::string> captureOutput(const CompilerCommand &Command,
                                           llvm::ArrayRef<std::string> Args, bool Stderr);
  /// Runs Program; with StderrFile, its stderr goes there.
  int run(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
          std::optional<llvm::StringRef> StderrFile = std::nullopt);
  int runOriginal(const CompilerCommand &Command);
  llvm::Error checkInputs(const CompilerCommand &Command) const;

  DriverOptions Options;
  RewriteFunction Rewrite;
  std::string CompilerPath; ///< resolved on first use
  std::optional<CompilerIdentity> Identity; ///< probed on first use
  std::optional<std::vector<std::string>> MPIFlags; ///< probed on first use
};

/// Prints "ompp-instrument: error: <Message>" to stderr.
void reportError(llvm::StringRef Message);

/// Rewrites a Make-style dependency file so that it names \p Original where
/// the compiler wrote \p Copy.  A missing file is not an error.
llvm::Error replaceInDependencyFile(llvm::StringRef DependencyFile, llvm::StringRef Copy,
                                    llvm::StringRef Original);

} // namespace ompp::driver

#endif // OMPP_DRIVER_DRIVER_H
