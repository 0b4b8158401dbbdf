/* Three instances of a parallel region whose loop gives every thread one
 * iteration of CPU work, measured in the thread's CPU time so that the work
 * is the same however busy the machine is:
 *   balanced (default): 50 ms of CPU each: run with more threads than CPUs
 *                        and the threads wait for the CPU, not for each other;
 *   imbalanced:          thread 0 computes 200 ms, the others nothing.
 * Instrumented by hand the way OPARI2 does it. */
#include <omp.h>
#include <string.h>
#include <time.h>
#include "pomp2_by_hand.h"
#include <pomp2/pomp2_lib.h>

static double thread_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void compute_ms(double ms) {
    const double end = thread_cpu_s() + ms / 1000.0;
    while (thread_cpu_s() < end) {
    }
}

static POMP2_Region_handle parallel_region, loop_region;
static const char parallel_ctc[] = "82*regionType=parallel*sscl=oversubscription.c:30:30*escl=oversubscription.c:40:40**";
static const char loop_ctc[] = "77*regionType=for*sscl=oversubscription.c:33:33*escl=oversubscription.c:36:36**";

/* File scope, not a local the parallel region captures: libgomp hands a
 * region's captured locals to its pooled threads through a synchronisation
 * ThreadSanitizer cannot see, so the second round's read was a false race. */
static int imbalanced;

int main(int argc, char** argv) {
    imbalanced = argc > 1 && strcmp(argv[1], "imbalanced") == 0;
    for (int round = 0; round < 3; ++round) {
        POMP2_Task_handle old_task;
        POMP2_Parallel_fork(&parallel_region, 1, omp_get_max_threads(), &old_task, parallel_ctc);
#pragma omp parallel firstprivate(old_task)
        {
            POMP2_Parallel_begin(&parallel_region);
            const int threads = omp_get_num_threads();
            POMP2_For_enter(&loop_region, loop_ctc);
#pragma omp for schedule(static, 1) nowait
            for (int i = 0; i < threads; ++i) compute_ms(imbalanced ? (i == 0 ? 200 : 0) : 50);
            implicit_barrier(&loop_region);
            POMP2_For_exit(&loop_region);
            implicit_barrier(&parallel_region);
            POMP2_Parallel_end(&parallel_region);
        }
        POMP2_Parallel_join(&parallel_region, old_task);
    }
    return 0;
}
