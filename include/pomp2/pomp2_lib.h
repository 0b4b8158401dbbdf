/* pomp2_lib.h - the POMP2 measurement API, as OPARI2 2.0.7 declares it.
 *
 * This header is the contract between code rewritten by ompp-instrument and
 * libompp.  It keeps OPARI2's names and signatures exactly, so objects that
 * OPARI2 instrumented link against libompp, and objects that
 * `ompp-instrument --opari2-compatible` produces link against any POMP2
 * library.  ompp's additions (OpenMP 4.5+ constructs, native registration)
 * are in <pomp2/pomp2_ompp.h>.
 *
 * Handle protocol
 *   - One POMP2_Region_handle per source construct, zero-initialised.  The
 *     first event of a construct passes its CTC string; a runtime that finds
 *     *handle == NULL registers the region from it (lazy initialisation).
 *     Eager registration calls POMP2_Assign_handle for every handle.
 *   - Task handles (POMP2_Task_handle) are never computed by instrumented
 *     code: the begin-like call of a scheduling point stores the current task
 *     in *pomp2_old_task, the matching end-like call restores it.
 *
 * CTC string ("compile-time context"):
 *   "<len>*regionType=<t>*sscl=<file>:<l1>:<l2>*escl=<file>:<l1>:<l2>*[key=value*]...*"
 *   <len> is the length from the first '*' to the final "**", plus 2.
 */
#ifndef POMP2_LIB_H
#define POMP2_LIB_H

/* No #include: code rewritten by ompp-instrument includes this header into
 * the user's translation unit, where a system header could clash with the
 * user's own declarations (e.g. `extern "C" void abort();` before
 * <stdlib.h>).  The compilers' predefined type macros stand in for
 * <stddef.h> and <stdint.h> (the same types: size_t, int64_t). */

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __opari2_region_handle
#define __opari2_region_handle
typedef void* OPARI2_Region_handle;
#endif
typedef OPARI2_Region_handle POMP2_Region_handle;
typedef __INT64_TYPE__ POMP2_Task_handle;

/* Provided by the link-step file of OPARI2's init protocol (opari2-config
 * --region-initialization), or by nobody in ompp's native mode: libompp
 * references them weakly. */
void POMP2_Init_regions(void);
__SIZE_TYPE__ POMP2_Get_num_regions(void);
const char* POMP2_Get_opari2_version(void);

/* Registration and task identity. */
void POMP2_Assign_handle(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
POMP2_Task_handle POMP2_Get_new_task_handle(void);

/* Synchronisation constructs. */
void POMP2_Atomic_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Atomic_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Barrier_enter(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                         const char ctc_string[]);
void POMP2_Barrier_exit(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Implicit_barrier_enter(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task);
void POMP2_Implicit_barrier_exit(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Flush_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Flush_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Critical_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Critical_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Critical_begin(POMP2_Region_handle* pomp2_handle);
void POMP2_Critical_end(POMP2_Region_handle* pomp2_handle);
void POMP2_Ordered_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Ordered_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Ordered_begin(POMP2_Region_handle* pomp2_handle);
void POMP2_Ordered_end(POMP2_Region_handle* pomp2_handle);

/* Parallel region: fork/join on the encountering thread, begin/end on every
 * team thread. */
void POMP2_Parallel_fork(POMP2_Region_handle* pomp2_handle, int if_clause, int num_threads,
                         POMP2_Task_handle* pomp2_old_task, const char ctc_string[]);
void POMP2_Parallel_join(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Parallel_begin(POMP2_Region_handle* pomp2_handle);
void POMP2_Parallel_end(POMP2_Region_handle* pomp2_handle);

/* Worksharing. */
void POMP2_For_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_For_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Master_begin(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Master_end(POMP2_Region_handle* pomp2_handle);
void POMP2_Sections_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Sections_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Section_begin(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Section_end(POMP2_Region_handle* pomp2_handle);
void POMP2_Single_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Single_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Single_begin(POMP2_Region_handle* pomp2_handle);
void POMP2_Single_end(POMP2_Region_handle* pomp2_handle);
void POMP2_Workshare_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Workshare_exit(POMP2_Region_handle* pomp2_handle);

/* Tasks. */
void POMP2_Task_create_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_new_task,
                             POMP2_Task_handle* pomp2_old_task, int pomp2_if, const char ctc_string[]);
void POMP2_Task_create_end(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Task_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_task);
void POMP2_Task_end(POMP2_Region_handle* pomp2_handle);
void POMP2_Untied_task_create_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_new_task,
                                    POMP2_Task_handle* pomp2_old_task, int pomp2_if,
                                    const char ctc_string[]);
void POMP2_Untied_task_create_end(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Untied_task_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_task);
void POMP2_Untied_task_end(POMP2_Region_handle* pomp2_handle);
void POMP2_Taskwait_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                          const char ctc_string[]);
void POMP2_Taskwait_end(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);

/* Fortran helper kept for ABI completeness. */
int POMP2_Lib_get_max_threads(void);

/* OpenMP lock API wrappers (POMP2_Init_lock ... POMP2_Test_nest_lock, and
 * ompp's POMP2_Init_lock_with_hint / POMP2_Init_nest_lock_with_hint): same
 * semantics as the omp_* function each replaces.  They are not declared
 * here, since their types come from <omp.h> (<pomp2/pomp2_locks.h> declares
 * them for hand-instrumented code): ompp-instrument declares each
 * one where the code first names its omp_* function, with that function's
 * exact type (`__typeof__(omp_set_lock) POMP2_Set_lock;`), so that function
 * pointers and exception specifications match the user's <omp.h>. */

#ifdef __cplusplus
}
#endif

#endif /* POMP2_LIB_H */
