/* clock_floor.c - the least any profiler that times OpenMP constructs the
 * way ompp does can add: its clock reads and nothing else.
 *
 * Preloaded (LD_PRELOAD) into construct_overhead linked with the loops built
 * through ompp-cc, it replaces libompp's timed events with one clock read
 * each, stored in a thread-local word, and no accounting.  A critical
 * section or a lock then makes the four reads ompp needs per instance
 * (waiting from, held from, held until, done at), two of them while the
 * lock is held; a parallel region makes one at its fork and at its join on
 * the master, and one at the begin and the end of every thread's part (its
 * startup, its body, its wait at the join barrier); a worksharing construct
 * or a barrier one at each of its events on every thread.
 * construct-overhead.py --floor runs it; the difference to the plain loops is
 * the floor of every row but ATOMIC and TASK on this machine
 * (docs/benchmarks.md).  ompp reads the same
 * clock: the TSC on x86, CLOCK_MONOTONIC elsewhere.  The POMP2 headers declare what
 * it defines, so its signatures are libompp's. */
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_locks.h>
#include <pomp2/pomp2_ompp.h>
#include <stdint.h>
#include <time.h>

static __thread uint64_t last_read;

static inline void read_clock(void) {
#if defined(__x86_64__) || defined(__i386__)
  last_read = __builtin_ia32_rdtsc();
#else
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  last_read = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#endif
}

void POMP2_Critical_enter(POMP2_Region_handle *handle, const char ctc[]) {
  (void)handle, (void)ctc;
  read_clock();
}
void POMP2_Critical_begin(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}
void POMP2_Critical_end(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}
void POMP2_Critical_exit(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}

void POMP2_Set_lock(omp_lock_t *lock) {
  read_clock();
  omp_set_lock(lock);
  read_clock();
}
void POMP2_Unset_lock(omp_lock_t *lock) {
  read_clock();
  omp_unset_lock(lock);
  read_clock();
}

void POMP2_Parallel_fork(POMP2_Region_handle *handle, int if_clause, int num_threads, POMP2_Task_handle *old_task,
                         const char ctc[]) {
  (void)handle, (void)if_clause, (void)num_threads, (void)ctc;
  *old_task = 0;
  read_clock();
}
void POMP2_Parallel_begin(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}
void POMP2_Parallel_end(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}
void POMP2_Parallel_join(POMP2_Region_handle *handle, POMP2_Task_handle old_task) {
  (void)handle, (void)old_task;
  read_clock();
}
/* A parallel loop's part: ompp reads the clock once for the two events. */
void POMP2_Parallel_begin_for_enter(POMP2_Region_handle *parallel_handle, POMP2_Region_handle *handle,
                                    const char ctc[]) {
  (void)parallel_handle, (void)handle, (void)ctc;
  read_clock();
}
void POMP2_For_exit_parallel_end(POMP2_Region_handle *handle, POMP2_Region_handle *parallel_handle) {
  (void)handle, (void)parallel_handle;
  read_clock();
}

void POMP2_For_enter(POMP2_Region_handle *handle, const char ctc[]) {
  (void)handle, (void)ctc;
  read_clock();
}
void POMP2_For_exit(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}
void POMP2_Single_enter(POMP2_Region_handle *handle, const char ctc[]) {
  (void)handle, (void)ctc;
  read_clock();
}
void POMP2_Single_begin(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}
void POMP2_Single_end(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}
void POMP2_Single_exit(POMP2_Region_handle *handle) {
  (void)handle;
  read_clock();
}
void POMP2_Barrier_enter(POMP2_Region_handle *handle, POMP2_Task_handle *old_task, const char ctc[]) {
  (void)handle, (void)ctc;
  *old_task = 0;
  read_clock();
}
void POMP2_Barrier_exit(POMP2_Region_handle *handle, POMP2_Task_handle old_task) {
  (void)handle, (void)old_task;
  read_clock();
}
void POMP2_Implicit_barrier_enter(POMP2_Region_handle *handle, POMP2_Task_handle *old_task) {
  (void)handle;
  *old_task = 0;
  read_clock();
}
void POMP2_Implicit_barrier_exit(POMP2_Region_handle *handle, POMP2_Task_handle old_task) {
  (void)handle, (void)old_task;
  read_clock();
}
