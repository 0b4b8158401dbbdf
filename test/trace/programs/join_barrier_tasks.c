/* A worker runs a task after its own end of the parallel region, in the
 * OpenMP runtime's join barrier, as libgomp and libomp do with tasks still
 * queued when a thread reaches the end of the region (`parallel` +
 * `single`, BOTS-style).  The task (30 ms, user region "late") belongs to
 * the team: the trace has the worker leave the region and the team after
 * it, and the critical path runs from the master's join through it. */
#include <stdatomic.h>
#include <omp.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>
#include "by_hand.h"

static POMP2_Region_handle parallel_region, task_region;
static POMP2_USER_Region_handle late_region;
static const char parallel_ctc[] =
    "80*regionType=parallel*sscl=join_barrier_tasks.c:35:35*escl=join_barrier_tasks.c:55:55**";
static const char task_ctc[] = "80*regionType=task*sscl=join_barrier_tasks.c:40:40*escl=join_barrier_tasks.c:40:40**";
static const char late_ctc[] =
    "80*regionType=userRegion*sscl=join_barrier_tasks.c:48:48*escl=join_barrier_tasks.c:48:48*userRegionName=late**";

static atomic_llong task;  /* the task's handle, for the worker; 0: not yet */

int main(void) {
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        if (omp_get_thread_num() == 0) {
            POMP2_Task_handle created, creator;
            POMP2_Task_create_begin(&task_region, &created, &creator, 1, task_ctc);
            POMP2_Task_create_end(&task_region, creator);
            atomic_store(&task, (long long)created);
            POMP2_Parallel_end(&parallel_region);
        } else {
            long long created;
            while ((created = atomic_load(&task)) == 0) sleep_ms(1);
            POMP2_Parallel_end(&parallel_region);
            run_task_by_hand(&task_region, (POMP2_Task_handle)created, &late_region, late_ctc, 30);
        }
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    return 0;
}
