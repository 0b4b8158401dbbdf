/* Workload for the snapshot-overhead benchmark: a parallel region (hand-
 * instrumented as OPARI2 would) running `iterations` rounds of a worksharing
 * loop over 64 distinct user regions plus a critical section: ~70 call-tree
 * nodes to read per snapshot while two threads generate events at a high
 * rate.  Prints the elapsed seconds of the parallel part. */
#define OMPP_INSTRUMENTED 1
#include <omp.h>
#include "pomp2_by_hand.h"
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user.h>
#include <stdio.h>
#include <stdlib.h>

static POMP2_Region_handle parallel_region, loop_region, critical_region;
static const char parallel_ctc[] = "80*regionType=parallel*sscl=snapshot_workload.c:40:40*escl=snapshot_workload.c:80:80**";
static const char loop_ctc[] = "70*regionType=for*sscl=snapshot_workload.c:45:45*escl=snapshot_workload.c:60:60**";
static const char critical_ctc[] = "80*regionType=critical*sscl=snapshot_workload.c:62:62*escl=snapshot_workload.c:66:66**";

static double work(int n) {
    double x = 0;
    for (int i = 0; i < n; ++i) x += 1.0 / (1.0 + i * x);
    return x;
}

#define REGION(k)                              \
    case k: {                                  \
        POMP_USER_REGION_BEGIN("kernel" #k);   \
        sum += work(200 + k);                  \
        POMP_USER_REGION_END("kernel" #k);     \
        break;                                 \
    }
#define REGIONS8(k) REGION(k##0) REGION(k##1) REGION(k##2) REGION(k##3) REGION(k##4) REGION(k##5) REGION(k##6) REGION(k##7)

int main(int argc, char** argv) {
    int iterations = argc > 1 ? atoi(argv[1]) : 2000;
    double total = 0;
    double start = omp_get_wtime();
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, omp_get_max_threads(), &old_task, parallel_ctc);
#pragma omp parallel firstprivate(old_task) reduction(+ : total)
    {
        POMP2_Parallel_begin(&parallel_region);
        double sum = 0;
        for (int it = 0; it < iterations; ++it) {
            POMP2_For_enter(&loop_region, loop_ctc);
#pragma omp for schedule(static) nowait
            for (int r = 0; r < 64; ++r) {
                switch (r + 10 + 2 * (r / 8)) { /* 10-17, 20-27, ..., 80-87 */ REGIONS8(1) REGIONS8(2) REGIONS8(3) REGIONS8(4) REGIONS8(5) REGIONS8(6) REGIONS8(7) REGIONS8(8) default: break; }
            }
            implicit_barrier(&loop_region);
            POMP2_For_exit(&loop_region);
            if (it % 16 == 0) {
                POMP2_Critical_enter(&critical_region, critical_ctc);
#pragma omp critical
                {
                    POMP2_Critical_begin(&critical_region);
                    sum += 1;
                    POMP2_Critical_end(&critical_region);
                }
                POMP2_Critical_exit(&critical_region);
            }
        }
        total += sum;
        implicit_barrier(&parallel_region);
        POMP2_Parallel_end(&parallel_region);
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    printf("%.6f %g\n", omp_get_wtime() - start, total);
    return 0;
}
