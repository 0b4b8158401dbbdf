//===--- Emit.h - apply a rewrite plan to the original text -----*- C++ -*-===//
//
// Turns a plan into the instrumented translation unit: merges edits at one
// offset in plan order, frames statement-level code with `#line` so
// diagnostics and debug info stay on the original lines, checks edits for
// conflicts (a conflict is a bug and names both constructs), applies them
// with clang::tooling::Replacements, and adds the region handles, CTC
// strings and registration code.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_EMIT_EMIT_H
#define OMPP_INSTRUMENTER_EMIT_EMIT_H

#include "model/Directive.h"
#include "plan/Plan.h"

#include "llvm/Support/Error.h"

namespace ompp::instrument::emit {

struct EmitOptions {
  bool Opari2Compatible = false;
  std::string UnitId;
  std::string FileName; // as named on the command line
  std::string Marker;   // first line of the output
};

llvm::Expected<std::string> emit(const model::UnitModel &Unit, const plan::Plan &Plan,
                                 const EmitOptions &Options);

/// A C string literal for Text (quotes included).
std::string cStringLiteral(llvm::StringRef Text);

} // namespace ompp::instrument::emit

#endif
