/* Directives in an included header are not instrumented: one warning with
 * the header's name and line (the header is included twice, counted once). */
#include "header_pragmas.h"
#include "header_pragmas.h"
#include <stdio.h>
int main(void) {
  int n = count_threads();
  #pragma omp parallel
  #pragma omp atomic
  n--;
  printf("%d\n", n == 0);
  return 0;
}
// EXPECT-WARNING: header_pragmas.h:10: warning: not instrumented: 2 OpenMP directives in header '\S*header_pragmas.h'
// STDOUT: 1
// T1: Parallel_fork parallel@8; Parallel_begin parallel; Atomic_enter atomic@9; Atomic_exit atomic;
// T1: Implicit_barrier_enter parallel; Implicit_barrier_exit parallel; Parallel_end parallel; Parallel_join parallel
