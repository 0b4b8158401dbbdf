#include <stdio.h>
int main(void) {
  int x = 0;
  #pragma pomp noinstrument
  #pragma omp parallel
  {
    #pragma omp atomic
    x++;
  }
  #pragma pomp instrument
  #pragma omp parallel
  {
    #pragma omp atomic
    x++;
  }
  printf("%d\n", x > 0);
  return 0;
}
// STDOUT: 1
// T1: Parallel_fork parallel@5; Parallel_begin parallel@5; Parallel_end parallel@5; Parallel_join parallel@5;
// T1: Parallel_fork parallel@11; Parallel_begin parallel@11; Atomic_enter atomic@13; Atomic_exit atomic@13;
// T1: Implicit_barrier_enter parallel@11; Implicit_barrier_exit parallel@11; Parallel_end parallel@11; Parallel_join parallel@11
