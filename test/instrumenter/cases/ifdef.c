#include <stdio.h>
#define A 1
int main(void) {
  int n = 0;
#ifdef A
  #pragma omp parallel
#else
  #pragma omp parallel num_threads(2)
#endif
  {
    #pragma omp atomic
    n++;
  }
#if 0
  #pragma omp barrier
#endif
  printf("%d\n", n > 0);
  return 0;
}
// STDOUT: 1
// T1: Parallel_fork parallel@6; Parallel_begin parallel@6; Atomic_count atomic@11;
// T1: Parallel_end parallel; Parallel_join parallel
