/* A parallel region of 2 threads with a known load imbalance and a known
 * contended critical section, instrumented by hand the way OPARI2 does it:
 *   loop: 2 iterations, schedule(static,1); iteration 0 sleeps 300 ms,
 *         iteration 1 sleeps 50 ms  -> one thread waits ~250 ms at the barrier
 *   critical: each thread holds it 100 ms -> one thread waits ~100 ms to enter
 * Sleeps, not spins, so the figures hold on a busy machine. */
#include <omp.h>
#include "pomp2_by_hand.h"
#include <pomp2/pomp2_lib.h>
#include <time.h>

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static POMP2_Region_handle parallel_region, loop_region, critical_region;
static const char parallel_ctc[] = "80*regionType=parallel*sscl=imbalance_critical.c:30:30*escl=imbalance_critical.c:60:60**";
static const char loop_ctc[] = "70*regionType=for*sscl=imbalance_critical.c:33:33*escl=imbalance_critical.c:40:40**";
static const char critical_ctc[] = "80*regionType=critical*sscl=imbalance_critical.c:45:45*escl=imbalance_critical.c:50:50**";

int main(void) {
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        POMP2_For_enter(&loop_region, loop_ctc);
#pragma omp for schedule(static, 1) nowait
        for (int i = 0; i < 2; ++i) sleep_ms(i == 0 ? 300 : 50);
        implicit_barrier(&loop_region);
        POMP2_For_exit(&loop_region);

        POMP2_Critical_enter(&critical_region, critical_ctc);
#pragma omp critical
        {
            POMP2_Critical_begin(&critical_region);
            sleep_ms(100);
            POMP2_Critical_end(&critical_region);
        }
        POMP2_Critical_exit(&critical_region);
        implicit_barrier(&parallel_region);
        POMP2_Parallel_end(&parallel_region);
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    return 0;
}
