//===--- Rewriter.h - ompp-instrument rewriter entry point ------*- C++ -*-===//
//
// The one function the command-line driver calls: parse a translation unit
// with Clang, plan the POMP2 instrumentation of every OpenMP construct, lock
// call and `#pragma pomp` user region, and return the rewritten text.
// Layers, one direction: parse -> model -> plan -> emit (docs/instrumenter.md).
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_REWRITER_REWRITER_H
#define OMPP_INSTRUMENTER_REWRITER_REWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "parse/Parse.h"

#include <optional>
#include <string>
#include <vector>

namespace ompp::instrument {

struct RewriteOptions {
  bool Opari2Compatible = false;  // emit only OPARI2 2.0.7's POMP2 API + ctc format and the
                                  // POMP2_Init_reg_<id>_<n> / POMP2_USER_Init_reg_<id>_<n> functions
  std::string UnitId;             // unique id for this translation unit ([a-z0-9]+), used in
                                  // generated symbol names; the driver supplies it
  bool KeepUntied = false;        // default: untied is removed with a one-line note (like OPARI2)
  bool TimeTrivial = false;       // time atomic and flush (default: counted, no clock read)
  std::vector<std::string> Disabled; // construct families not to instrument, OPARI2 --disable style
                                  // (e.g. "atomic","critical","locks","flush","sync","task",...)
  /// When Clang cannot parse the file, read it with the textual front end
  /// (parse/TextualParse.h) instead of failing: for a compiler that accepts
  /// what Clang 16 rejects (GCC).  The compiler must then check the output.
  bool TextualFallback = false;
  bool TextualOnly = false;       // testing: always the textual front end
};

/// A place in the main file: 1-based line and column.
struct SourcePosition {
  unsigned Line = 0;
  unsigned Column = 0;
};

struct RewriteResult {
  std::string Source;          // the complete instrumented translation unit text
  unsigned NumRegions = 0;
  unsigned NumWarnings = 0;
  bool AlreadyInstrumented = false; // input was ompp output: Source is the input unchanged
  std::optional<SourcePosition> FirstDirective; // of the OpenMP directives in the main file
  std::vector<std::string> QuoteDirs; // compile Source with `-iquote` for each (headers inlined
                                      // into it include their neighbours)
  /// Clang's first error when the textual front end read the file instead
  /// (RewriteOptions::TextualFallback); empty when Clang parsed it.
  std::string ClangError;
};

/// The first line of every rewritten file; an input with this line anywhere
/// is returned unchanged (never instrumented twice).
inline constexpr llvm::StringLiteral InstrumentedMarker =
    "#define OMPP_INSTRUMENTED 1 /* ompp-instrument output */";

/// Parses File with a clang driver command line (ClangArgs: flags only, e.g. {"-fopenmp","-I..",
/// "-DX","-std=c++17","-xc++"}; no input files, no -o/-c; the driver helper filters gcc-only flags)
/// and returns the rewritten text. A file Clang cannot parse gives a FrontEndError holding Clang's
/// diagnostics (file:line:col; not printed), never partial output.
llvm::Expected<RewriteResult> rewriteFile(llvm::StringRef File, llvm::ArrayRef<std::string> ClangArgs,
                                          const RewriteOptions &Options);

/// Clang could not parse the input (see parse/Parse.h).
using parse::FrontEndError;

/// The construct family names accepted in RewriteOptions::Disabled.
std::vector<std::string> disableableFamilies();

} // namespace ompp::instrument

#endif
