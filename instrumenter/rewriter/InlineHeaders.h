//===--- InlineHeaders.h - bring headers with OpenMP code into the unit -*- C++ -*-===//
//
// ompp rewrites the file it compiles, not the headers it includes.  A user
// header that holds OpenMP constructs (C++ classes and templates, code files
// included into a test driver) is therefore copied into the main file's text
// in place of its `#include`, framed by `#line` directives, so its constructs
// are instrumented like the main file's while every location, CTC string and
// diagnostic still names the header and its lines.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_REWRITER_INLINEHEADERS_H
#define OMPP_INSTRUMENTER_REWRITER_INLINEHEADERS_H

#include "model/Directive.h"

#include <optional>
#include <string>
#include <vector>

namespace ompp::instrument {

struct InlinedHeaders {
  std::string Text;                   // the main file with the headers inlined
  std::vector<std::string> QuoteDirs; // directories of the inlined headers, for their own
                                      // quoted includes (`-iquote`)
};

/// Inlines the main-file `#include`s that bring in Unit.HeaderPragmas.  A
/// header that cannot be inlined (`#pragma once`, `#include_next`, not
/// readable, brought in by a directive that is not a plain line) keeps its
/// HeaderDirectives entry, with the reason in NotInlined.  None when nothing
/// could be inlined.
/// MainName is the main file as named on the command line: a header beside it
/// is named the same way (`src/a.c` includes `src/a.h`), as a compiler does.
std::optional<InlinedHeaders> inlineHeaders(model::UnitModel &Unit, llvm::StringRef MainName);

} // namespace ompp::instrument

#endif
