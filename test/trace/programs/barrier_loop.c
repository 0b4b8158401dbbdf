/* A loop of 30 steps on 2 threads with a barrier after each: in step i,
 * thread i % 2 works 8 ms (user region "slow") and the other 1 ms ("fast";
 * sleeps: the figures hold on a busy machine).  The critical path runs
 * through every slow step, alternating threads: the same few steps 30
 * times, which its text prints once with the count. */
#include <omp.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>
#include "by_hand.h"

enum { kSteps = 30 };

static POMP2_Region_handle parallel_region, barrier_region;
static POMP2_USER_Region_handle slow_region, fast_region;
static const char parallel_ctc[] = "80*regionType=parallel*sscl=barrier_loop.c:30:30*escl=barrier_loop.c:50:50**";
static const char barrier_ctc[] = "80*regionType=barrier*sscl=barrier_loop.c:45:45*escl=barrier_loop.c:45:45**";
static const char slow_ctc[] =
    "80*regionType=userRegion*sscl=barrier_loop.c:36:36*escl=barrier_loop.c:38:38*userRegionName=slow**";
static const char fast_ctc[] =
    "80*regionType=userRegion*sscl=barrier_loop.c:40:40*escl=barrier_loop.c:42:42*userRegionName=fast**";

int main(void) {
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        for (int step = 0; step < kSteps; ++step) {
            if (omp_get_thread_num() == step % 2) {
                POMP2_Begin(&slow_region, slow_ctc);
                sleep_ms(8);
                POMP2_End(&slow_region);
            } else {
                POMP2_Begin(&fast_region, fast_ctc);
                sleep_ms(1);
                POMP2_End(&fast_region);
            }
            POMP2_Task_handle waiting;
            POMP2_Barrier_enter(&barrier_region, &waiting, barrier_ctc);
#pragma omp barrier
            POMP2_Barrier_exit(&barrier_region, waiting);
        }
        POMP2_Parallel_end(&parallel_region);
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    return 0;
}
