// ompp_rewrite: test-only front end of the rewriter library.
//   ompp_rewrite [--opari2] [--keep-untied] [--time-trivial] [--disable=a,b] [--unit-id=X] [--textual] FILE [-- CLANG ARGS...]
// --textual: the textual (fallback) front end instead of Clang's AST.
// Prints the rewritten translation unit on stdout; exit 1 on error (message on stderr).
#include "rewriter/Rewriter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  ompp::instrument::RewriteOptions Options;
  std::string File;
  std::vector<std::string> ClangArgs;
  int I = 1;
  for (; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A == "--opari2")
      Options.Opari2Compatible = true;
    else if (A == "--textual")
      Options.TextualOnly = true;
    else if (A == "--keep-untied")
      Options.KeepUntied = true;
    else if (A == "--time-trivial")
      Options.TimeTrivial = true;
    else if (A.consume_front("--disable=")) {
      llvm::SmallVector<llvm::StringRef> Names;
      A.split(Names, ',');
      for (llvm::StringRef N : Names)
        Options.Disabled.push_back(N.str());
    } else if (A.consume_front("--unit-id="))
      Options.UnitId = A.str();
    else
      File = A.str();
  }
  for (; I < argc; ++I)
    ClangArgs.push_back(argv[I]);
  if (File.empty()) {
    llvm::errs() << "usage: ompp_rewrite [options] FILE [-- clang args]\n";
    return 2;
  }
  auto Result = ompp::instrument::rewriteFile(File, ClangArgs, Options);
  if (!Result) {
    llvm::errs() << "ompp_rewrite: " << llvm::toString(Result.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << Result->Source;
  llvm::errs() << "ompp_rewrite: " << Result->NumRegions << " regions, " << Result->NumWarnings
               << " warnings" << (Result->AlreadyInstrumented ? ", already instrumented" : "")
               << "\n";
  return 0;
}
