/* pomp2_locks.h - POMP2's OpenMP lock wrappers, for hand-instrumented code.
 *
 * Each POMP2_*lock* function has the semantics of the omp_* function it
 * replaces, and here also its exact type, taken from the <omp.h> the program
 * is compiled with (exception specifications and hint enums included).
 * ompp-instrument does not include this header: it declares each wrapper the
 * same way where the code first names the omp_* function (see
 * docs/instrumenter.md), so the two declarations always agree. */
#ifndef POMP2_LOCKS_H
#define POMP2_LOCKS_H

#include <omp.h>

#ifdef __cplusplus
extern "C" {
#endif

__typeof__(omp_init_lock) POMP2_Init_lock;
__typeof__(omp_destroy_lock) POMP2_Destroy_lock;
__typeof__(omp_set_lock) POMP2_Set_lock;
__typeof__(omp_unset_lock) POMP2_Unset_lock;
__typeof__(omp_test_lock) POMP2_Test_lock;
__typeof__(omp_init_nest_lock) POMP2_Init_nest_lock;
__typeof__(omp_destroy_nest_lock) POMP2_Destroy_nest_lock;
__typeof__(omp_set_nest_lock) POMP2_Set_nest_lock;
__typeof__(omp_unset_nest_lock) POMP2_Unset_nest_lock;
__typeof__(omp_test_nest_lock) POMP2_Test_nest_lock;
#if _OPENMP >= 201511
__typeof__(omp_init_lock_with_hint) POMP2_Init_lock_with_hint;
__typeof__(omp_init_nest_lock_with_hint) POMP2_Init_nest_lock_with_hint;
#endif

#ifdef __cplusplus
}
#endif

#endif /* POMP2_LOCKS_H */
