/* clock_floor.c - the least any profiler that times a critical section or
 * a lock the way ompp does can add: its clock reads and nothing else.
 *
 * Preloaded (LD_PRELOAD) into construct_overhead linked with the loops built
 * through ompp-cc, it replaces libompp's critical and lock events with one
 * clock read each, stored in a thread-local word: the four reads ompp needs
 * per instance (waiting from, held from, held until, done at), two of them
 * while the lock is held, and no accounting.  construct-overhead.py --floor
 * runs it; the difference to the plain loops is the floor of the CRITICAL
 * and LOCK rows on this machine (docs/benchmarks.md).  ompp reads the same
 * clock: the TSC on x86, CLOCK_MONOTONIC elsewhere.  The POMP2 headers declare what
 * it defines, so its signatures are libompp's. */
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_locks.h>
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
