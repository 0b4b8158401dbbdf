#include <stdio.h>
int main(void) {
  int s = 0;
  #pragma omp parallel
  #pragma omp single
  #pragma omp taskloop simd reduction(+:s)
  for (int i = 0; i < 8; ++i) s += i;
  printf("%d\n", s);
  return 0;
}
// EXPECT-WARNING: unsupported.c:6: warning: not instrumented: 'taskloop simd' is not supported
// STDOUT: 28
// T1: Parallel_fork parallel; Parallel_begin parallel; Single_enter single; Single_begin single; Single_end single;
// T1: Implicit_barrier_enter single; Implicit_barrier_exit single; Single_exit single;
// T1: Implicit_barrier_enter parallel; Implicit_barrier_exit parallel; Parallel_end parallel; Parallel_join parallel
