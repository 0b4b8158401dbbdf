#include <stdio.h>
int main(void) {
  int s = 0;
  #pragma omp parallel
  #pragma omp master taskloop reduction(+:s)
  for (int i = 0; i < 8; ++i) s += i;
  printf("%d\n", s);
  return 0;
}
// EXPECT-WARNING: unsupported.c:5: warning: not instrumented: 'master taskloop' is not supported
// STDOUT: 28
// T1: Parallel_fork parallel; Parallel_begin parallel;
// T1: Parallel_end parallel; Parallel_join parallel
