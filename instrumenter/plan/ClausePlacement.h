//===--- ClausePlacement.h - clauses of a split combined construct -*- C++ -*-===//
//
// ompp splits `parallel for`, `parallel for simd`, `parallel sections`,
// `parallel loop` and `parallel master/masked` into `parallel` and the inner
// construct.  Where each clause goes is decided by one table (see
// ClausePlacement.cpp) that follows OpenMP 5.1 section 17.2 "Clauses on
// Combined and Composite Constructs".
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_PLAN_CLAUSEPLACEMENT_H
#define OMPP_INSTRUMENTER_PLAN_CLAUSEPLACEMENT_H

#include "model/Directive.h"

#include <string>
#include <vector>

namespace ompp::instrument::plan {

struct LeafClauses {
  std::vector<std::string> Text; // clauses as spelled (allocate: its share of the list)
  bool TaskReduction = false;    // reduction(task, ...): the leaf may not be nowait
};

struct CombinedSplit {
  LeafClauses Parallel, Inner;
  /// Variables of list items that a clause gives to the inner leaf only
  /// (the spec makes them shared on the parallel), in order, no repeats,
  /// none that a clause on the parallel names.
  std::vector<std::string> MovedInward;
  /// Why the construct cannot be split (e.g. a clause that no leaf
  /// accepts); empty when every clause found its place.
  std::string KeepWhole;
  /// Why Clang must compile the construct as written (a Clang bug): the
  /// split is then made for other compilers only (`#ifndef __clang__`).
  std::string WholeForClang;
};

/// Splits the clauses of combined construct D between `parallel` and Inner
/// (OMPD_for, OMPD_for_simd, OMPD_sections, OMPD_loop, OMPD_master,
/// OMPD_masked).
CombinedSplit splitCombinedClauses(const model::Directive &D, clang::OpenMPDirectiveKind Inner);

/// `reduction(task, ...)`: OpenMP forbids `nowait` on its construct.
bool isTaskReduction(const model::Clause &C);

} // namespace ompp::instrument::plan

#endif
