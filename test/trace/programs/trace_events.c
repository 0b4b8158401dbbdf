/* Every kind of event OMPP_TRACE records, in known numbers, instrumented
 * by hand the way OPARI2 does it.  Usage: trace_events TASKS LOCK_ROUNDS UNDEFERRED
 *   a parallel region (2 threads), in it on each thread: a user region,
 *   LOCK_ROUNDS omp_set_lock/omp_unset_lock, one critical; then one single
 *   thread creates TASKS tasks (each with a user region inside) and waits
 *   for them at a taskwait, then UNDEFERRED tasks with if(0) the way ompp's
 *   own output passes the clause (POMP2_Task_create_begin_final); an
 *   explicit barrier; the implicit barrier. */
#include <omp.h>
#include <stdlib.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_locks.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>
#include "../../analyses/programs/pomp2_by_hand.h"

static POMP2_Region_handle parallel_region, critical_region, single_region, task_region, taskwait_region,
    barrier_region, lock_site;
static POMP2_USER_Region_handle user_region;
static const char parallel_ctc[] = "80*regionType=parallel*sscl=trace_events.c:30:30*escl=trace_events.c:70:70**";
static const char critical_ctc[] = "80*regionType=critical*sscl=trace_events.c:40:40*escl=trace_events.c:44:44**";
static const char single_ctc[] = "80*regionType=single*sscl=trace_events.c:46:46*escl=trace_events.c:60:60**";
static const char task_ctc[] = "80*regionType=task*sscl=trace_events.c:50:50*escl=trace_events.c:55:55**";
static const char taskwait_ctc[] = "80*regionType=taskwait*sscl=trace_events.c:57:57*escl=trace_events.c:57:57**";
static const char barrier_ctc[] = "80*regionType=barrier*sscl=trace_events.c:62:62*escl=trace_events.c:62:62**";
static const char lock_ctc[] = "80*regionType=lock*sscl=trace_events.c:25:25*escl=trace_events.c:25:25**";
static const char user_ctc[] = "80*regionType=userRegion*sscl=trace_events.c:35:35*escl=trace_events.c:37:37*userRegionName=work**";

static volatile double sink;
static void work(void) {
    POMP2_Begin(&user_region, user_ctc);
    for (int i = 0; i < 1000; ++i) sink += i;
    POMP2_End(&user_region);
}

int main(int argc, char** argv) {
    const int tasks = argc > 1 ? atoi(argv[1]) : 10;
    const int lock_rounds = argc > 2 ? atoi(argv[2]) : 3;
    const int undeferred = argc > 3 ? atoi(argv[3]) : 0;
    omp_lock_t lock;
    POMP2_Lock_init_site(&lock_site, lock_ctc);
    POMP2_Init_lock(&lock);
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        work();
        for (int round = 0; round < lock_rounds; ++round) {
            POMP2_Set_lock(&lock);
            sink += 1;
            POMP2_Unset_lock(&lock);
        }
        POMP2_Critical_enter(&critical_region, critical_ctc);
#pragma omp critical
        {
            POMP2_Critical_begin(&critical_region);
            sink += 1;
            POMP2_Critical_end(&critical_region);
        }
        POMP2_Critical_exit(&critical_region);

        POMP2_Single_enter(&single_region, single_ctc);
#pragma omp single nowait
        {
            POMP2_Single_begin(&single_region);
            for (int t = 0; t < tasks; ++t) {
                POMP2_Task_handle new_task, creator;
                POMP2_Task_create_begin(&task_region, &new_task, &creator, 1, task_ctc);
#pragma omp task firstprivate(new_task)
                {
                    POMP2_Task_begin(&task_region, new_task);
                    work();
                    POMP2_Task_end(&task_region);
                }
                POMP2_Task_create_end(&task_region, creator);
            }
            POMP2_Task_handle waiting;
            POMP2_Taskwait_begin(&taskwait_region, &waiting, taskwait_ctc);
#pragma omp taskwait
            POMP2_Taskwait_end(&taskwait_region, waiting);
            for (int t = 0; t < undeferred; ++t) {
                POMP2_Task_handle new_task, creator;
                POMP2_Task_create_begin_final(&task_region, &new_task, &creator, 0, 0, task_ctc);
#pragma omp task if (0) firstprivate(new_task)
                {
                    if (new_task != POMP2_UNTIMED_TASK) POMP2_Task_begin(&task_region, new_task);
                    work();
                    if (new_task != POMP2_UNTIMED_TASK) POMP2_Task_end(&task_region);
                }
                POMP2_Task_create_end(&task_region, creator);
            }
            POMP2_Single_end(&single_region);
        }
        implicit_barrier(&single_region);
        POMP2_Single_exit(&single_region);

        POMP2_Task_handle at_barrier;
        POMP2_Barrier_enter(&barrier_region, &at_barrier, barrier_ctc);
#pragma omp barrier
        POMP2_Barrier_exit(&barrier_region, at_barrier);
        implicit_barrier(&parallel_region);
        POMP2_Parallel_end(&parallel_region);
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    POMP2_Destroy_lock(&lock);
    return 0;
}
