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

namespace ompp::instrument::parse {

/// Clang arguments for parsing: the user's flags plus -fopenmp and the
/// resource directory when they are missing.
std::vector<std::string> parserArguments(llvm::ArrayRef<std::string> ClangArgs);

/// Parses File; Clang's diagnostics go to stderr.  Fails on any error.
/// With Text, parses that text as if it were File's content (same name and
/// directory, so its quoted includes resolve as File's would), silently.
llvm::Expected<model::UnitModel> parseMainFile(llvm::StringRef File,
                                               llvm::ArrayRef<std::string> ClangArgs,
                                               std::optional<llvm::StringRef> Text = std::nullopt);

} // namespace ompp::instrument::parse

#endif
