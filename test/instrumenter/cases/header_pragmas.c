/* Directives in an included header are instrumented: the header is inlined
 * in place of its first #include (its guard skips the second), framed by
 * #line, so its regions name the header and its lines. */
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
// STDOUT: 1
// T1: Parallel_fork parallel@9; Parallel_begin parallel@9; Atomic_count atomic@11;
// T1: Parallel_end parallel@9; Parallel_join parallel@9;
// T1: Parallel_fork parallel@9; Parallel_begin parallel; Atomic_count atomic@10;
// T1: Parallel_end parallel; Parallel_join parallel
