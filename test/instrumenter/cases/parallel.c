#include <stdio.h>
int main(void) {
  int x = 0, n = 2;
  #pragma omp parallel default(none) shared(x) if(n > 0) num_threads(n)
  {
    #pragma omp atomic
    x++;
  }
  printf("%d\n", x > 0);
  return 0;
}
// STDOUT: 1
// T1: Parallel_fork parallel@4; Parallel_begin parallel@4; Atomic_count atomic@6;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.0: Parallel_fork parallel; Parallel_begin parallel; Atomic_count atomic;
// T2.0: Parallel_end parallel; Parallel_join parallel
// T2.1: Parallel_begin parallel; Atomic_count atomic;
// T2.1: Parallel_end parallel
