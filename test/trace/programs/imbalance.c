/* A parallel region of 2 threads where thread 1 works 200 ms and thread 0
 * 20 ms before the implicit barrier (sleeps: the figures hold on a busy
 * machine).  The critical path runs fork -> thread 1's 200 ms in the user
 * region "slow" -> the barrier -> the join. */
#include <omp.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>
#include "by_hand.h"
#include "../../analyses/programs/pomp2_by_hand.h"

static POMP2_Region_handle parallel_region;
static POMP2_USER_Region_handle slow_region, fast_region;
static const char parallel_ctc[] = "80*regionType=parallel*sscl=imbalance.c:25:25*escl=imbalance.c:40:40**";
static const char slow_ctc[] = "80*regionType=userRegion*sscl=imbalance.c:31:31*escl=imbalance.c:33:33*userRegionName=slow**";
static const char fast_ctc[] = "80*regionType=userRegion*sscl=imbalance.c:35:35*escl=imbalance.c:37:37*userRegionName=fast**";

int main(void) {
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        if (omp_get_thread_num() == 1) {
            POMP2_Begin(&slow_region, slow_ctc);
            sleep_ms(200);
            POMP2_End(&slow_region);
        } else {
            POMP2_Begin(&fast_region, fast_ctc);
            sleep_ms(20);
            POMP2_End(&fast_region);
        }
        implicit_barrier(&parallel_region);
        POMP2_Parallel_end(&parallel_region);
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    return 0;
}
