/* by_hand.h - pieces of the trace tests' programs, which make their POMP2
 * calls by hand: a sleep that holds on a busy machine (the programs' figures
 * are sleeps), and a task run by hand (its POMP2 events, with `ms` of work
 * in a user region), so that a test fixes which thread runs it. */
#ifndef OMPP_TRACE_BY_HAND_H
#define OMPP_TRACE_BY_HAND_H

#include <time.h>
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>

static inline void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static inline void run_task_by_hand(POMP2_Region_handle* task_region, POMP2_Task_handle task,
                                    POMP2_USER_Region_handle* work, const char* work_ctc, long ms) {
    POMP2_Task_begin(task_region, task);
    POMP2_Begin(work, work_ctc);
    sleep_ms(ms);
    POMP2_End(work);
    POMP2_Task_end(task_region);
}

#endif
