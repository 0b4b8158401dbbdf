/* The spill writer thread at the ends of a traced process.
 *
 * spill_ends <pairs> exit: exit() in the middle of a parallel region:
 * thread 0 records <pairs> user-region pairs ("counted") and calls exit(0)
 * while thread 1 is still recording pairs ("busy") in a loop.  With a tiny
 * OMPP_TRACE_BUFFER both threads hand many chunks to the spill writer; the
 * finaliser (at exit) drains it while thread 1 keeps recording.
 *
 * spill_ends <pairs> fork: records <pairs> pairs (the spill writer is
 * running), fork()s a child that records <pairs> more and exits; the child
 * has no spill writer to drain.  Exit status 3 if the child did not exit 0. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>

static POMP2_Region_handle parallel_region;
static POMP2_USER_Region_handle counted_region, busy_region;
static const char parallel_ctc[] = "80*regionType=parallel*sscl=spill_ends.c:20:20*escl=spill_ends.c:36:36**";
static const char counted_ctc[] =
    "80*regionType=userRegion*sscl=spill_ends.c:25:25*escl=spill_ends.c:26:26*userRegionName=counted**";
static const char busy_ctc[] =
    "80*regionType=userRegion*sscl=spill_ends.c:31:31*escl=spill_ends.c:32:32*userRegionName=busy**";

static void counted_pairs(int pairs) {
    for (int i = 0; i < pairs; ++i) {
        POMP2_Begin(&counted_region, counted_ctc);
        POMP2_End(&counted_region);
    }
}

static int fork_midway(int pairs) {
    counted_pairs(pairs);
    const pid_t child = fork();
    if (child == 0) {
        counted_pairs(pairs);
        exit(0);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) return 3;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 3;
}

int main(int argc, char** argv) {
    const int pairs = argc > 1 ? atoi(argv[1]) : 1000;
    if (argc > 2 && strcmp(argv[2], "fork") == 0) return fork_midway(pairs);
    int started = 0;
    POMP2_Task_handle old_task;
    POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
    {
        POMP2_Parallel_begin(&parallel_region);
        if (omp_get_thread_num() == 0) {
            while (omp_get_num_threads() > 1 && !__atomic_load_n(&started, __ATOMIC_ACQUIRE)) {
            }
            counted_pairs(pairs);
            exit(0);
        }
        for (;;) {
            POMP2_Begin(&busy_region, busy_ctc);
            POMP2_End(&busy_region);
            __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
        }
    }
    POMP2_Parallel_join(&parallel_region, old_task);
    return 0;
}
