//===--- TextualParse.h - the token-level fallback front end ----*- C++ -*-===//
//
// When Clang cannot parse a file that GCC compiles (GNU nested functions,
// OpenMP that gcc-12 accepts and clang-16 rejects), the directives are found
// the way OPARI2 finds them: Clang's preprocessor alone decides which lines
// are active and which macros expand where, and the main file's tokens are
// read without Sema.  The result is the same model::UnitModel the AST front
// end fills, so plan and emit do not know which front end ran.  Whatever the
// tokens do not settle (a block that starts with a macro expanding to a
// statement, a construct crossing an #if/#else, a pragma from a macro, an
// unknown directive) leaves that construct uninstrumented with a warning.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_PARSE_TEXTUALPARSE_H
#define OMPP_INSTRUMENTER_PARSE_TEXTUALPARSE_H

#include "model/Directive.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace ompp::instrument::parse {

/// Preprocesses File with the user's flags and builds its model from the
/// tokens of the main file.  Fails with a FrontEndError if the preprocessor
/// reports errors, or with a plain error if the main file's brackets do not
/// balance in its active code.  With Text, reads that text as if it were
/// File's content (see parseMainFile).
llvm::Expected<model::UnitModel>
parseMainFileTextually(llvm::StringRef File, llvm::ArrayRef<std::string> ClangArgs,
                       std::optional<llvm::StringRef> Text = std::nullopt);

} // namespace ompp::instrument::parse

#endif
