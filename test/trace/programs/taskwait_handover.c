/* The master creates tasks A and B and waits for both in a taskwait; it
 * runs B (5 ms) itself, while thread 1 runs A (60 ms, user region "long")
 * at the implicit barrier.  The tasks are run by hand (their POMP2 events),
 * handed over through untraced synchronisation, so that who runs what is
 * fixed.  The master's taskwait ends when A completes on thread 1: the
 * critical path runs through A's 60 ms, not through the master waiting in
 * its taskwait after B. */
#include <stdatomic.h>
#include <omp.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>
#include "by_hand.h"

static POMP2_Region_handle parallel_region, task_region, taskwait_region;
static POMP2_USER_Region_handle long_region, short_region;
static const char parallel_ctc[] = "80*regionType=parallel*sscl=taskwait_handover.c:40:40*escl=taskwait_handover.c:75:75**";
static const char task_ctc[] = "80*regionType=task*sscl=taskwait_handover.c:45:45*escl=taskwait_handover.c:45:45**";
static const char taskwait_ctc[] = "80*regionType=taskwait*sscl=taskwait_handover.c:50:50*escl=taskwait_handover.c:50:50**";
static const char long_ctc[] =
    "80*regionType=userRegion*sscl=taskwait_handover.c:60:60*escl=taskwait_handover.c:60:60*userRegionName=long**";
static const char short_ctc[] =
    "80*regionType=userRegion*sscl=taskwait_handover.c:55:55*escl=taskwait_handover.c:55:55*userRegionName=short**";

static atomic_llong task_a;        /* A's handle, for thread 1; 0: not yet */
static atomic_int a_completed;

int main(void) {
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        POMP2_Task_handle at_barrier;
        if (omp_get_thread_num() == 0) {
            POMP2_Task_handle a, b, creator;
            POMP2_Task_create_begin(&task_region, &a, &creator, 1, task_ctc);
            POMP2_Task_create_end(&task_region, creator);
            atomic_store(&task_a, (long long)a);
            POMP2_Task_create_begin(&task_region, &b, &creator, 1, task_ctc);
            POMP2_Task_create_end(&task_region, creator);
            POMP2_Task_handle waiting;
            POMP2_Taskwait_begin(&taskwait_region, &waiting, taskwait_ctc);
            run_task_by_hand(&task_region, b, &short_region, short_ctc, 5);
            while (!atomic_load(&a_completed)) sleep_ms(1);
            POMP2_Taskwait_end(&taskwait_region, waiting);
            POMP2_Implicit_barrier_enter(&parallel_region, &at_barrier);
        } else {
            long long a;
            while ((a = atomic_load(&task_a)) == 0) sleep_ms(1);
            POMP2_Implicit_barrier_enter(&parallel_region, &at_barrier);
            run_task_by_hand(&task_region, (POMP2_Task_handle)a, &long_region, long_ctc, 60);
            atomic_store(&a_completed, 1);
        }
#pragma omp barrier
        POMP2_Implicit_barrier_exit(&parallel_region, at_barrier);
        POMP2_Parallel_end(&parallel_region);
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    return 0;
}
