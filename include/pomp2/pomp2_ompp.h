/* pomp2_ompp.h - ompp's extensions of the POMP2 API.
 *
 * OPARI2 stops at OpenMP 3.0.  These calls follow the same conventions as
 * <pomp2/pomp2_lib.h> (handle per source construct, CTC string on the first
 * event, old/new task handles around scheduling points) and cover what came
 * later.  Only libompp implements them; `--opari2-compatible` output never
 * calls them.
 *
 * Region types the CTC string may carry beyond OPARI2's list:
 *   masked parallelmaster parallelmasked taskgroup taskloop taskyield
 *   forsimd parallelforsimd loop scope ordereddepend cancel
 *   cancellationpoint section lock
 * Extra CTC keys:  function=<enclosing function> (any region; '*' written
 * %2A, '%' %25), lockName=<init argument> (lock), hasFilter=1 (masked), cancelKind=<parallel|for|sections|
 * taskgroup>, hasNogroup=1, hasGrainsize=1, hasNum_tasks=1, hasPriority=1,
 * hasFinal=1, hasMergeable=1, hasDepend=1, timing=count (atomic, flush: the
 * construct is counted by POMP2_Atomic_count / POMP2_Flush_count, not timed).
 * Unknown keys are ignored.
 */
#ifndef POMP2_OMPP_H
#define POMP2_OMPP_H

#include <pomp2/pomp2_lib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* masked (and the master part of parallel master/masked): called only by the
 * thread that executes the block, inside it - like POMP2_Master_begin. */
void POMP2_Masked_begin(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Masked_end(POMP2_Region_handle* pomp2_handle);

/* taskgroup: enter/exit around the construct (exit follows the wait for
 * descendant tasks, a scheduling point), begin/end around its body. */
void POMP2_Taskgroup_enter(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                           const char ctc_string[]);
void POMP2_Taskgroup_exit(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Taskgroup_begin(POMP2_Region_handle* pomp2_handle);
void POMP2_Taskgroup_end(POMP2_Region_handle* pomp2_handle);

/* task, with its if and final clauses evaluated (1 for a clause the task
 * lacks) and passed on, as the construct then gets them: `if(pomp2_if)
 * final(pomp2_final)`.  A task they make run at once inside its creation
 * (undeferred, or included in a final task) costs about a call in the plain
 * program; libompp then counts it without reading the clock, sets
 * *pomp2_new_task to POMP2_UNTIMED_TASK and *pomp2_old_task to a value that
 * POMP2_Task_create_end recognises.  The task body leaves out its
 * POMP2_Task_begin and POMP2_Task_end for that handle (ompp-instrument tests
 * it inline, saving two calls per task).  Otherwise as
 * POMP2_Task_create_begin. */
#define POMP2_UNTIMED_TASK ((POMP2_Task_handle)1 << 62)
/* True for the old-task value of a task creation or a taskwait that libompp
 * counted without a clock and whose end event has nothing to do (any such
 * task but the outermost final one; a taskwait with nothing to wait for):
 * ompp-instrument then leaves out POMP2_Task_create_end / POMP2_Taskwait_end,
 * so that a task or taskwait below a BOTS-style `if` or `final` cut-off
 * makes one call into libompp, not two.  Calling the end anyway is harmless. */
#define POMP2_UNTIMED_DONE(pomp2_old_task)                                                              \
    ((pomp2_old_task) >= 0 &&                                                                          \
     ((pomp2_old_task) & (((POMP2_Task_handle)1 << 62) | ((POMP2_Task_handle)1 << 60))) == POMP2_UNTIMED_TASK)
void POMP2_Task_create_begin_final(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_new_task,
                                   POMP2_Task_handle* pomp2_old_task, int pomp2_if, int pomp2_final,
                                   const char ctc_string[]);

/* atomic and flush, counted without timing: one call before the construct
 * instead of the enter/exit pair.  Their own duration is below the clock's
 * resolution, and in a hot loop (a flush polling a flag) timing them would
 * cost more than the construct; the CTC string carries timing=count. */
void POMP2_Atomic_count(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Flush_count(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);

/* taskyield: a scheduling point. */
void POMP2_Taskyield_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                           const char ctc_string[]);
void POMP2_Taskyield_end(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);

/* taskloop: enter/exit around the whole construct, on the encountering
 * thread (its implicit taskgroup wait included).  The tasks the OpenMP
 * runtime generates report POMP2_Taskloop_task_begin/end with the taskloop's
 * handle; they have no create events, since the instrumented code cannot see
 * their creation. */
void POMP2_Taskloop_enter(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                          const char ctc_string[]);
void POMP2_Taskloop_exit(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Taskloop_task_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_task);
void POMP2_Taskloop_task_end(POMP2_Region_handle* pomp2_handle);

/* scope (OpenMP 5.1), a worksharing construct with an implicit barrier that
 * is instrumented like for: nowait + POMP2_Implicit_barrier_*. */
void POMP2_Scope_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Scope_exit(POMP2_Region_handle* pomp2_handle);

/* cancel / cancellation point.  When cancellation is activated the thread
 * leaves the construct without reaching the matching _exit (and possibly
 * without other end events of the cancelled region); the runtime closes the
 * regions it left open when the next event of an enclosing region arrives, so
 * end events stay balanced in the profile. */
void POMP2_Cancel_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Cancel_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Cancellation_point_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Cancellation_point_exit(POMP2_Region_handle* pomp2_handle);

/* Names the next lock this thread initialises (POMP2_Init_lock and its nest
 * and hint variants): ompp-instrument calls it in the init call's callee,
 * `(POMP2_Lock_init_site(h, ctc), POMP2_Init_lock)(&x)`, with a
 * regionType=lock CTC string whose sscl is the call's location and whose
 * lockName key is the argument (`x`).  Every lock initialised at one site is
 * one LOCK region; a lock initialised elsewhere is named by its address. */
void POMP2_Lock_init_site(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);

/* User regions named in code (the POMP_USER_REGION_* macros of
 * <pomp2/pomp2_user.h>).  Begin keeps one handle per call site; end finds the
 * innermost open user region of that name on the calling thread, and a
 * mismatch is recorded as a warning naming file and line. */
void POMP2_USER_Begin_named(POMP2_Region_handle* pomp2_handle, const char* name, const char* file,
                            int line);
void POMP2_USER_End_named(const char* name, const char* file, int line);

/* MPI calls, measured by libompp_mpi's PMPI wrappers (docs/mpi.md).  Each
 * MPI function is one region of kind MPI, named by `function` ("MPI_Send"),
 * entered and left by the calling thread where it calls, so a call inside a
 * parallel region sits under it in that thread's call tree; the handle (one
 * per wrapper) caches the region.  End adds the bytes the call moved.
 * POMP2_MPI_Process gives MPI_COMM_WORLD's rank and size once MPI_Init has
 * returned; they override what the launcher's environment said. */
void POMP2_MPI_Begin(POMP2_Region_handle* pomp2_handle, const char* function);
void POMP2_MPI_End(POMP2_Region_handle* pomp2_handle, unsigned long long bytes);
void POMP2_MPI_Process(int rank, int size);

/* parallel for / parallel loop / parallel sections, split into parallel and
 * the worksharing construct: nothing of the program runs between the team's
 * begin and the construct's enter, nor between the construct's exit and the
 * team's end, so each pair is one call, measured at one clock read.  Each
 * means its two events, in this order: POMP2_Parallel_begin(parallel_handle)
 * then POMP2_For_enter(pomp2_handle, ctc_string) (Sections_enter), and
 * POMP2_For_exit(pomp2_handle) (Sections_exit) then
 * POMP2_Parallel_end(parallel_handle). */
void POMP2_Parallel_begin_for_enter(POMP2_Region_handle* parallel_handle, POMP2_Region_handle* pomp2_handle,
                                    const char ctc_string[]);
void POMP2_For_exit_parallel_end(POMP2_Region_handle* pomp2_handle, POMP2_Region_handle* parallel_handle);
void POMP2_Parallel_begin_sections_enter(POMP2_Region_handle* parallel_handle, POMP2_Region_handle* pomp2_handle,
                                         const char ctc_string[]);
void POMP2_Sections_exit_parallel_end(POMP2_Region_handle* pomp2_handle, POMP2_Region_handle* parallel_handle);

/* Adds one snapshot, labelled, to the continuous profile (OMPP_SNAPSHOT_INTERVAL
 * takes them periodically). */
void POMP2_USER_Snapshot(const char* label);

#ifdef __cplusplus
}
#endif

#endif /* POMP2_OMPP_H */
