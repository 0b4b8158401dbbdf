/* --time-trivial: atomic and flush keep their timed enter/exit pair (the
 * default counts them with one call, sync.c); --opari2 does the same, as
 * OPARI2 2.0.7 does (opari2_mode.c). */
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
// REWRITE-ARGS: --time-trivial
// STDOUT: 1
// T1: Parallel_fork parallel@7; Parallel_begin parallel; Atomic_enter atomic@9; Atomic_exit atomic;
// T1: Flush_enter flush@11; Flush_exit flush; Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Atomic_exit atomic = 2
// T2.COUNT: Flush_exit flush = 2
