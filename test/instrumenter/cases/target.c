#include <stdio.h>
int main(void) {
  int x = 0;
  #pragma omp target map(tofrom: x)
  {
    #pragma omp parallel num_threads(1)
    x = 1;
  }
  #pragma omp parallel
  {
  }
  printf("%d\n", x);
  return 0;
}
// EXPECT-WARNING: note: 'target' left as is
// STDOUT: 1
// T1: Parallel_fork parallel@9; Parallel_begin parallel; Parallel_end parallel; Parallel_join parallel
