//===--- ClausePlacement.cpp - the clause-placement table -----------------===//
//
// One row per clause a combined `parallel <inner>` construct may carry; the
// rule column is OpenMP 5.1 section 17.2 in a word.  Which leaf "permits" a
// clause is LLVM's own OpenMP table (llvm::omp::isAllowedClauseForDirective).
// A clause without a row, or one that lands on no leaf, keeps the construct
// whole and uninstrumented (the caller warns): ompp never guesses where a
// clause belongs.
//
//===----------------------------------------------------------------------===//
#include "plan/ClausePlacement.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Frontend/OpenMP/OMP.h.inc"

namespace ompp::instrument::plan {

using model::Clause;
using namespace clang;
using namespace llvm::omp;

namespace {

enum class Rule {
  /// Every leaf that permits it (shared, default, order, an unmodified if,
  /// and the clauses only one leaf permits: num_threads, schedule, ...).
  EveryLeafPermitting,
  /// The inner leaf if it permits it, else the parallel; a list item that
  /// goes to the inner leaf is shared on the parallel.  firstprivate: the
  /// worksharing leaf; lastprivate: every leaf permitting it (only the inner
  /// one does); reduction: not the parallel when combined with for,
  /// sections or loop (a task modifier applies to the innermost leaf, inscan
  /// to every leaf it is applied to); linear: the innermost leaf.
  InnerElseParallel,
  /// The spec applies private to the innermost leaf that permits it; on a
  /// combined construct the parallel is equivalent, keeps `default(none)`
  /// satisfied, and is where GCC puts it.
  Parallel,
  /// allocate: every leaf on which a privatising clause has the same list item.
  WithPrivatisingClause,
};

struct ClauseRow {
  OpenMPClauseKind Kind;
  Rule Goes;
  /// The row is for this reduction modifier only (first matching row wins).
  OpenMPReductionClauseModifier Modifier = OMPC_REDUCTION_unknown;
  /// Clang must compile the construct unsplit (a Clang bug), and why.
  const char *WholeForClang = nullptr;
};

// clang-format off
constexpr ClauseRow Placement[] = {
    {OMPC_if,          Rule::EveryLeafPermitting}, // if(<leaf>: ...): only that leaf
    {OMPC_num_threads, Rule::EveryLeafPermitting}, // parallel
    {OMPC_proc_bind,   Rule::EveryLeafPermitting}, // parallel
    {OMPC_copyin,      Rule::EveryLeafPermitting}, // parallel
    {OMPC_default,     Rule::EveryLeafPermitting}, // parallel
    {OMPC_shared,      Rule::EveryLeafPermitting}, // parallel
    {OMPC_private,     Rule::Parallel},
    {OMPC_firstprivate, Rule::InnerElseParallel},  // for, for simd, sections; else parallel
    {OMPC_lastprivate, Rule::InnerElseParallel},   // for, for simd, sections, loop
    {OMPC_reduction,   Rule::InnerElseParallel, OMPC_REDUCTION_inscan,
     "clang 16 miscompiles 'reduction(inscan, ...)' on a loop nested in a parallel region"},
    {OMPC_reduction,   Rule::InnerElseParallel},   // for, for simd, sections, loop; else parallel
    {OMPC_linear,      Rule::InnerElseParallel},   // for, for simd
    {OMPC_allocate,    Rule::WithPrivatisingClause},
    {OMPC_schedule,    Rule::EveryLeafPermitting}, // for, for simd
    {OMPC_collapse,    Rule::EveryLeafPermitting}, // for, for simd, loop
    {OMPC_ordered,     Rule::EveryLeafPermitting}, // for, for simd
    {OMPC_order,       Rule::EveryLeafPermitting}, // for, for simd, loop
    {OMPC_bind,        Rule::EveryLeafPermitting}, // loop
    {OMPC_safelen,     Rule::EveryLeafPermitting}, // for simd
    {OMPC_simdlen,     Rule::EveryLeafPermitting}, // for simd
    {OMPC_aligned,     Rule::EveryLeafPermitting}, // for simd
    {OMPC_nontemporal, Rule::EveryLeafPermitting}, // for simd
    {OMPC_filter,      Rule::EveryLeafPermitting}, // masked
};
// clang-format on

/// Clauses that give their list items a private copy (allocate follows them).
bool privatises(OpenMPClauseKind K) {
  return K == OMPC_private || K == OMPC_firstprivate || K == OMPC_lastprivate ||
         K == OMPC_reduction || K == OMPC_linear;
}

/// The OpenMP version whose clause rules are applied.
constexpr unsigned SpecVersion = 51;

struct Leaves {
  bool Parallel = false, Inner = false;
};

Leaves place(const Clause &C, Rule Goes, OpenMPDirectiveKind Inner) {
  bool ParallelPermits = isAllowedClauseForDirective(OMPD_parallel, C.Kind, SpecVersion);
  bool InnerPermits = isAllowedClauseForDirective(Inner, C.Kind, SpecVersion);
  switch (Goes) {
  case Rule::EveryLeafPermitting:
    // A directive-name modifier names the one leaf the clause is for.
    if (C.NameModifier == OMPD_parallel)
      return {ParallelPermits, false};
    if (C.NameModifier != OMPD_unknown)
      return {false, InnerPermits};
    return {ParallelPermits, InnerPermits};
  case Rule::InnerElseParallel:
    return {!InnerPermits && ParallelPermits, InnerPermits};
  case Rule::Parallel:
    return {ParallelPermits, false};
  case Rule::WithPrivatisingClause:
    break; // decided once the privatising clauses have their places
  }
  return {};
}

/// allocate's share of the list on one leaf: the clause as spelled when it
/// keeps every item, else regenerated with the items privatised there.
std::string allocateFor(const Clause &C, const std::vector<std::string> &Privatised) {
  std::vector<std::string> Items;
  for (const std::string &V : C.Vars)
    if (llvm::is_contained(Privatised, V))
      Items.push_back(V);
  if (Items.empty())
    return {};
  if (Items.size() == C.Vars.size())
    return C.Text;
  return "allocate(" + C.ListPrefix + llvm::join(Items, ", ") + ")";
}

void add(LeafClauses &Leaf, const Clause &C, std::string Text) {
  Leaf.Text.push_back(std::move(Text));
  Leaf.TaskReduction |= isTaskReduction(C);
}

} // namespace

bool isTaskReduction(const Clause &C) {
  return C.Kind == OMPC_reduction && C.ReductionModifier == OMPC_REDUCTION_task;
}

CombinedSplit splitCombinedClauses(const model::Directive &D, OpenMPDirectiveKind Inner) {
  CombinedSplit Out;
  std::vector<std::string> PrivatisedOnParallel, PrivatisedInner, NamedOnParallel;
  std::vector<std::pair<const Clause *, Leaves>> Placed;
  for (const Clause &C : D.Clauses) {
    const ClauseRow *Row = llvm::find_if(Placement, [&](const ClauseRow &R) {
      return R.Kind == C.Kind &&
             (R.Modifier == OMPC_REDUCTION_unknown || R.Modifier == C.ReductionModifier);
    });
    if (Row == std::end(Placement)) {
      Out.KeepWhole = "no place for clause '" + C.Text + "'";
      return Out;
    }
    if (Row->WholeForClang)
      Out.WholeForClang = "'" + C.Text + "': " + Row->WholeForClang;
    Leaves Where = place(C, Row->Goes, Inner);
    if (!Where.Parallel && !Where.Inner && Row->Goes != Rule::WithPrivatisingClause) {
      Out.KeepWhole = "no leaf accepts clause '" + C.Text + "'";
      return Out;
    }
    Placed.emplace_back(&C, Where);
    if (privatises(C.Kind))
      llvm::append_range(Where.Parallel ? PrivatisedOnParallel : PrivatisedInner, C.Vars);
    if (Where.Parallel)
      llvm::append_range(NamedOnParallel, C.Vars);
  }
  auto MoveInward = [&](const std::string &V) {
    if (!llvm::is_contained(NamedOnParallel, V) && !llvm::is_contained(Out.MovedInward, V))
      Out.MovedInward.push_back(V);
  };
  for (const auto &[C, Where] : Placed) {
    if (C->Kind != OMPC_allocate) {
      if (Where.Parallel)
        add(Out.Parallel, *C, C->Text);
      if (Where.Inner)
        add(Out.Inner, *C, C->Text);
      if (privatises(C->Kind) && Where.Inner && !Where.Parallel)
        llvm::for_each(C->Vars, MoveInward);
      continue;
    }
    std::string OnParallel, OnInner;
    if (isAllowedClauseForDirective(OMPD_parallel, OMPC_allocate, SpecVersion))
      OnParallel = allocateFor(*C, PrivatisedOnParallel);
    if (isAllowedClauseForDirective(Inner, OMPC_allocate, SpecVersion))
      OnInner = allocateFor(*C, PrivatisedInner);
    if (OnParallel.empty() && OnInner.empty()) {
      Out.KeepWhole = "no privatising clause for the list items of '" + C->Text + "'";
      return Out;
    }
    if (!OnParallel.empty())
      add(Out.Parallel, *C, OnParallel);
    if (!OnInner.empty())
      add(Out.Inner, *C, OnInner);
  }
  // The loop counters are privatised by the loop leaf (lastprivate in a
  // simd loop, whose value the program may read after the loop).
  llvm::for_each(D.LoopCountersDeclaredOutside, MoveInward);
  return Out;
}

} // namespace ompp::instrument::plan
