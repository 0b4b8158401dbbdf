//===--- Shared.h - what both front ends of the parse layer use -*- C++ -*-===//
//
// The AST front end (Parse.cpp) and the textual fallback (TextualParse.cpp)
// run Clang the same way and record the same preprocessor facts: `#pragma
// pomp`, header pragmas and includes, `#line` numbering, lock functions.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_PARSE_SHARED_H
#define OMPP_INSTRUMENTER_PARSE_SHARED_H

#include "model/Directive.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace clang {
class FrontendAction;
class Preprocessor;
class SourceManager;
} // namespace clang

namespace ompp::instrument::parse {

/// Runs Action on File with the user's flags (see parserArguments); with
/// Text, as if File held that text.  Fails with a FrontEndError holding
/// Clang's diagnostics (nothing printed) on any error or a crash of Clang.
llvm::Error runClang(llvm::StringRef File, llvm::ArrayRef<std::string> ClangArgs,
                     std::unique_ptr<clang::FrontendAction> Action,
                     std::optional<llvm::StringRef> Text);

/// Records `#pragma pomp` lines, the `#pragma omp` lines of user headers and
/// the main file's includes of user headers into Out while PP runs.
void recordPreprocessorFacts(clang::Preprocessor &PP, model::UnitModel &Out);

/// Out.PresumedLines where the main file (Out.Text, already set) has `#line`s.
void recordLineDirectives(const clang::SourceManager &SM, model::UnitModel &Out);

/// omp_*_lock functions (also nest and with_hint), renamed to POMP2 wrappers.
bool isLockFunction(llvm::StringRef Name);

} // namespace ompp::instrument::parse

#endif
