/* A metadirective is left whole (gcc-12 ignores it, Clang chooses a
 * variant): the pragma is never cut, constructs inside it and around it are
 * instrumented, and an enclosing construct's block begins before it. */
#include <stdio.h>
int main(void) {
  int n = 0, m = 0;
  #pragma omp metadirective when(user = {condition(1)}: parallel) default(single)
  {
    #pragma omp atomic
    n++;
  }
  #pragma omp parallel
  #pragma omp metadirective \
      when(user = {condition(1)}: single) default(master)
  if (n)
    #pragma omp atomic
    m++;
  printf("%d %d\n", n > 0, m > 0);
  return 0;
}
// STDOUT: 1 1
// T1: Atomic_count atomic@9;
// T1: Parallel_fork parallel@12; Parallel_begin parallel; Atomic_count atomic@16;
// T1: Parallel_end parallel; Parallel_join parallel
// TEXTUAL-DIFFERS: only Clang knows which variant it chose
