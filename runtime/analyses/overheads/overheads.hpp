// overheads.hpp - ompP's overhead analysis: four classes of time lost by the
// threads of a team (synchronization, load imbalance, limited parallelism,
// thread management), per parallel region and for the whole program.
//
// Attribution follows ompP's ompp_overheads.c construct by construct (see
// docs/analyses.md for the table); task work done while a thread waits in a
// barrier is not overhead, so every wait is taken net of the task_stub time
// below it.  Constructs inside a task tree count for the parallel regions in
// which instances of that task ran, in proportion to the task time there.
#pragma once

#include "analyses/profile_index.hpp"
#include "model/profile.hpp"

namespace ompp::analyses {

// What one call-tree node contributes, summed over its threads.
model::OverheadClasses node_overheads(const ProfileIndex& index, const model::Node& node);

// Wallclock of one parallel-region node (its longest thread, the master's
// fork-to-join time) times its team size: ompP's per-region "Total".
double parallel_region_total(const model::Node& node);

// Parallel coverage: the wallclock time (master's fork to join) of the
// parallel regions not run inside another one, summed; at most the program's
// wall time.  A nested region, or one in a task that ran inside a parallel
// region, is already covered by the outer one.
double parallel_coverage(const ProfileIndex& index);

// The program record and one record per parallel region (sorted by overhead,
// largest first, as in ompP's report).
model::Overheads compute_overheads(const model::Profile& profile);

}  // namespace ompp::analyses
