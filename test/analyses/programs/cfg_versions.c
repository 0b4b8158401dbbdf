/* The CFG paper's Fig. 1: version A calls foo, bar, foo, bar, ... and version
 * B foo ... foo, bar ... bar, 20 times each, as user regions through the
 * POMP2 API.  Run as `cfg_versions A|B`.  With a second argument the same
 * pattern also runs on every thread of a parallel region (instrumented by
 * hand the way OPARI2 does it). */
#define OMPP_INSTRUMENTED 1
#include <omp.h>
#include "pomp2_by_hand.h"
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user.h>
#include <string.h>

enum { kCalls = 20 };

static void foo(void) {
    POMP_USER_REGION_BEGIN("foo");
    POMP_USER_REGION_END("foo");
}

static void bar(void) {
    POMP_USER_REGION_BEGIN("bar");
    POMP_USER_REGION_END("bar");
}

static void run(int version_b) {
    if (version_b) {
        for (int i = 0; i < kCalls; ++i) foo();
        for (int i = 0; i < kCalls; ++i) bar();
    } else {
        for (int i = 0; i < kCalls; ++i) {
            foo();
            bar();
        }
    }
}

static POMP2_Region_handle parallel_region;
static const char parallel_ctc[] = "75*regionType=parallel*sscl=cfg_versions.c:50:50*escl=cfg_versions.c:58:58**";

int main(int argc, char** argv) {
    int version_b = argc > 1 && strcmp(argv[1], "B") == 0;
    run(version_b);
    if (argc > 2) {
        POMP2_Task_handle old_task;
        POMP2_Parallel_fork(&parallel_region, 1, 2, &old_task, parallel_ctc);
#pragma omp parallel num_threads(2) firstprivate(old_task)
        {
            POMP2_Parallel_begin(&parallel_region);
            run(version_b);
            implicit_barrier(&parallel_region);
            POMP2_Parallel_end(&parallel_region);
        }
        POMP2_Parallel_join(&parallel_region, old_task);
    }
    return 0;
}
