#include <stdio.h>
int main(void) {
  int sum = 0;
  #pragma omp parallel
  #pragma omp single
  #pragma omp taskloop grainsize(2) reduction(+:sum)
  for (int i = 0; i < 8; ++i)
    sum += i;
  printf("%d\n", sum);
  return 0;
}
// STDOUT: 28
// T1: Parallel_fork parallel; Parallel_begin parallel; Single_enter single; Single_begin single;
// T1: Taskloop_enter taskloop@6; Taskloop_exit taskloop@6;
// T1: Single_end single; Single_exit single;
// T1: Parallel_end parallel; Parallel_join parallel
// C-ONLY
// JOIN-BARRIER: single@5
