/* Thread 1 reaches the implicit barrier and runs two tasks the master
 * created there: the first (2 ms), then, 40 ms later, the second (30 ms),
 * as if it had waited for a dependency (in the OpenMP runtime: nothing is
 * traced).  It leaves the team last, so the critical path runs through
 * its 40 ms between the tasks: in the implicit barrier where the thread
 * is, not "outside any region" for want of a running task. */
#include <stdatomic.h>
#include <omp.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>
#include "by_hand.h"

static POMP2_Region_handle parallel_region, task_region;
static POMP2_USER_Region_handle first_region, second_region;
static const char parallel_ctc[] =
    "80*regionType=parallel*sscl=barrier_after_task.c:45:45*escl=barrier_after_task.c:70:70**";
static const char task_ctc[] = "80*regionType=task*sscl=barrier_after_task.c:50:50*escl=barrier_after_task.c:50:50**";
static const char first_ctc[] =
    "80*regionType=userRegion*sscl=barrier_after_task.c:30:30*escl=barrier_after_task.c:30:30*userRegionName=first**";
static const char second_ctc[] =
    "80*regionType=userRegion*sscl=barrier_after_task.c:31:31*escl=barrier_after_task.c:31:31*userRegionName=second**";

static atomic_llong tasks[2];  /* the tasks' handles, for thread 1; 0: not yet */

int main(void) {
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        POMP2_Task_handle at_barrier;
        if (omp_get_thread_num() == 0) {
            for (int i = 0; i < 2; ++i) {
                POMP2_Task_handle created, creator;
                POMP2_Task_create_begin(&task_region, &created, &creator, 1, task_ctc);
                POMP2_Task_create_end(&task_region, creator);
                atomic_store(&tasks[i], (long long)created);
            }
            POMP2_Implicit_barrier_enter(&parallel_region, &at_barrier);
        } else {
            while (atomic_load(&tasks[1]) == 0) sleep_ms(1);
            POMP2_Implicit_barrier_enter(&parallel_region, &at_barrier);
            run_task_by_hand(&task_region, (POMP2_Task_handle)atomic_load(&tasks[0]), &first_region, first_ctc, 2);
            sleep_ms(40);
            run_task_by_hand(&task_region, (POMP2_Task_handle)atomic_load(&tasks[1]), &second_region, second_ctc, 30);
        }
#pragma omp barrier
        POMP2_Implicit_barrier_exit(&parallel_region, at_barrier);
        if (omp_get_thread_num() == 1) sleep_ms(5);
        POMP2_Parallel_end(&parallel_region);
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    return 0;
}
