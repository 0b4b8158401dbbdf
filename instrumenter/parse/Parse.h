//===--- Parse.h - run Clang over one file and collect the model -*- C++ -*-===//
//
// Runs the Clang front end (syntax only) on the main file with the user's
// flags and fills a model::UnitModel: OpenMP directives from the AST (template
// patterns only, so a construct is seen once however often instantiated),
// OpenMP lock references (DeclRefExprs, never text), and `#pragma pomp` from a
// pragma handler (so `_Pragma("pomp ...")` and #if are honoured).
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_PARSE_PARSE_H
#define OMPP_INSTRUMENTER_PARSE_PARSE_H

#include "model/Directive.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace ompp::instrument::parse {

/// Clang arguments for parsing: the user's flags plus -fopenmp and the
/// resource directory when they are missing.
std::vector<std::string> parserArguments(llvm::ArrayRef<std::string> ClangArgs);

/// Clang could not parse the file.  Its diagnostics are kept, not printed:
/// whether they are the user's errors (to show) or the limits of Clang 16 on
/// code another compiler accepts (one warning, the file compiled unchanged)
/// is for the caller to decide.
class FrontEndError : public llvm::ErrorInfo<FrontEndError> {
public:
  static char ID;
  FrontEndError(std::string File, std::string Diagnostics)
      : File(std::move(File)), Diagnostics(std::move(Diagnostics)) {}
  const std::string &file() const { return File; }
  /// Clang's diagnostics as it would print them (file:line:col, carets).
  const std::string &diagnostics() const { return Diagnostics; }
  /// The first "file:line:col: error: ..." line.
  std::string firstError() const;
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string File;
  std::string Diagnostics;
};

/// Parses File.  Fails on any error, with a FrontEndError holding Clang's
/// diagnostics (nothing is printed).  With Text, parses that text as if it
/// were File's content (same name and directory, so its quoted includes
/// resolve as File's would).
llvm::Expected<model::UnitModel> parseMainFile(llvm::StringRef File,
                                               llvm::ArrayRef<std::string> ClangArgs,
                                               std::optional<llvm::StringRef> Text = std::nullopt);

} // namespace ompp::instrument::parse

#endif
