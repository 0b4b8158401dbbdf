/* Consecutive instances of two parallel regions, with teams of every size
 * from two threads to all of them: each round runs region A twice back to
 * back (the same fork node: a worker's report of the second instance goes
 * into the member the master read at the first one's join) and then region
 * B with every thread (another fork node: the fork slot changes, and
 * changes back at the next round).  Under ThreadSanitizer this tests the
 * order of the team hand-over (docs/runtime.md, "Team hand-over"): the only
 * other order between a worker's report and the master's reading of the
 * previous one is libgomp's fork and join barrier, which ThreadSanitizer
 * does not see.  test_analyses_e2e.py counts every thread's visits.
 * Usage: team_handover [rounds]; instrumented by hand the way OPARI2 does it. */
#include <omp.h>
#include <stdlib.h>
#include "pomp2_by_hand.h"
#include <pomp2/pomp2_lib.h>

static POMP2_Region_handle region_a, region_b;
static const char a_ctc[] = "78*regionType=parallel*sscl=team_handover.c:30:30*escl=team_handover.c:34:34**";
static const char b_ctc[] = "78*regionType=parallel*sscl=team_handover.c:40:40*escl=team_handover.c:44:44**";

/* One team of `threads` threads on `region`.  A macro, not a function of the
 * region: the team's body captures nothing of the master's (libgomp hands a
 * region's captured data to its threads through synchronisation
 * ThreadSanitizer does not see, so reading them was a false race). */
#define TEAM(region, ctc, threads)                                  \
    do {                                                            \
        POMP2_Task_handle old_task;                                 \
        const int team_threads = (threads); /* not in the _Pragma */ \
        POMP2_Parallel_fork(&(region), 1, team_threads, &old_task, ctc); \
        _Pragma("omp parallel num_threads(team_threads)")           \
        {                                                           \
            POMP2_Parallel_begin(&(region));                        \
            implicit_barrier(&(region));                            \
            POMP2_Parallel_end(&(region));                          \
        }                                                           \
        POMP2_Parallel_join(&(region), old_task);                   \
    } while (0)

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 100;
    const int max_threads = omp_get_max_threads();
    for (int round = 0; round < rounds; ++round) {
        const int threads = max_threads < 2 ? 1 : 2 + round % (max_threads - 1);
        TEAM(region_a, a_ctc, threads);
        TEAM(region_a, a_ctc, threads);
        TEAM(region_b, b_ctc, max_threads);
    }
    return 0;
}
