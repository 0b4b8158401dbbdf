/* Directives in an included header are not instrumented: one warning at the
 * #include naming the header and its first directive's line (the header is
 * included twice, counted once). */
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
// EXPECT-WARNING: header_pragmas.c:4:(\d+:)? warning: not instrumented: 2 OpenMP directives in header '\S*header_pragmas.h' \(first at line 10;
// STDOUT: 1
// T1: Parallel_fork parallel@9; Parallel_begin parallel; Atomic_enter atomic@10; Atomic_exit atomic;
// T1: Implicit_barrier_enter parallel; Implicit_barrier_exit parallel; Parallel_end parallel; Parallel_join parallel
