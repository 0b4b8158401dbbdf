/* A chain of nested tasks on 2 threads: the single thread creates task A
 * and waits for it; A works 20 ms, creates B and waits; B works 40 ms,
 * creates C and waits; C works 60 ms (sleeps).  Whoever runs them, the
 * critical path is the chain: A's, B's and C's work (user regions a, b,
 * c) one after the other, then back out through the taskwaits. */
#include <omp.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>
#include "by_hand.h"
#include "../../analyses/programs/pomp2_by_hand.h"

static POMP2_Region_handle parallel_region, single_region, task_region, taskwait_region;
static POMP2_USER_Region_handle work_regions[3];
static const char parallel_ctc[] = "80*regionType=parallel*sscl=task_chain.c:50:50*escl=task_chain.c:65:65**";
static const char single_ctc[] = "80*regionType=single*sscl=task_chain.c:53:53*escl=task_chain.c:60:60**";
static const char task_ctc[] = "80*regionType=task*sscl=task_chain.c:33:33*escl=task_chain.c:38:38**";
static const char taskwait_ctc[] = "80*regionType=taskwait*sscl=task_chain.c:40:40*escl=task_chain.c:40:40**";
static const char* work_ctc[3] = {
    "80*regionType=userRegion*sscl=task_chain.c:29:29*escl=task_chain.c:29:29*userRegionName=a**",
    "80*regionType=userRegion*sscl=task_chain.c:29:29*escl=task_chain.c:29:29*userRegionName=b**",
    "80*regionType=userRegion*sscl=task_chain.c:29:29*escl=task_chain.c:29:29*userRegionName=c**"};

static void chain_link(int level) {
    if (level > 0) {
        POMP2_Begin(&work_regions[level - 1], work_ctc[level - 1]);
        sleep_ms(20L * level);
        POMP2_End(&work_regions[level - 1]);
    }
    if (level == 3) return;
    POMP2_Task_handle new_task, creator;
    POMP2_Task_create_begin(&task_region, &new_task, &creator, 1, task_ctc);
#pragma omp task firstprivate(new_task, level)
    {
        POMP2_Task_begin(&task_region, new_task);
        chain_link(level + 1);
        POMP2_Task_end(&task_region);
    }
    POMP2_Task_create_end(&task_region, creator);
    POMP2_Task_handle waiting;
    POMP2_Taskwait_begin(&taskwait_region, &waiting, taskwait_ctc);
#pragma omp taskwait
    POMP2_Taskwait_end(&taskwait_region, waiting);
}

int main(void) {
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        POMP2_Single_enter(&single_region, single_ctc);
#pragma omp single nowait
        {
            POMP2_Single_begin(&single_region);
            chain_link(0);
            POMP2_Single_end(&single_region);
        }
        implicit_barrier(&single_region);
        POMP2_Single_exit(&single_region);
        implicit_barrier(&parallel_region);
        POMP2_Parallel_end(&parallel_region);
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    return 0;
}
