#include <stdio.h>
int main(void) {
  int x = 0;
  #pragma pomp noinstrument
  #pragma omp parallel
  {
    #pragma omp atomic
    x++;
  }
  #pragma omp parallel for
  for (int i = 0; i < 4; ++i) x += 0;
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
// T1: Parallel_fork parallelfor@10; Parallel_begin parallelfor@10; Parallel_end parallelfor@10; Parallel_join parallelfor@10;
// T1: Parallel_fork parallel@13; Parallel_begin parallel@13; Atomic_count atomic@15;
// T1: Parallel_end parallel@13; Parallel_join parallel@13
