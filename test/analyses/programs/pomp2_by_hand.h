/* pomp2_by_hand.h - what OPARI2 emits for an implicit barrier (the explicit
 * barrier it puts after a nowait construct, reported as the construct's
 * implicit barrier), as a function for programs instrumented by hand.  The
 * barrier inside is orphaned: it binds to the caller's team. */
#ifndef OMPP_POMP2_BY_HAND_H
#define OMPP_POMP2_BY_HAND_H

#include <pomp2/pomp2_lib.h>

static inline void implicit_barrier(POMP2_Region_handle* region) {
    POMP2_Task_handle old_task;
    POMP2_Implicit_barrier_enter(region, &old_task);
#pragma omp barrier
    POMP2_Implicit_barrier_exit(region, old_task);
}

#endif
