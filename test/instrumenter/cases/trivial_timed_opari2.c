/* --opari2: atomic and flush keep OPARI2 2.0.7's timed enter/exit pair
 * (ompp's default counts them with one call, sync.c). */
#include <stdio.h>
int main(void) {
  int x = 0;
  #pragma omp parallel
  {
    #pragma omp atomic
    x++;
    #pragma omp flush
  }
  printf("%d\n", x > 0);
  return 0;
}
// REWRITE-ARGS: --opari2 --unit-id=t1
// STDOUT: 1
// T1: Parallel_fork parallel@6; Parallel_begin parallel; Atomic_enter atomic@8; Atomic_exit atomic;
// T1: Flush_enter flush@10; Flush_exit flush;
// T1: Implicit_barrier_enter parallel; Implicit_barrier_exit parallel; Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Atomic_exit atomic = 2
// T2.COUNT: Flush_exit flush = 2
