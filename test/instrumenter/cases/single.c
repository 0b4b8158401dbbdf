#include <stdio.h>
int main(void) {
  int x = 0, ok = 0;
  #pragma omp parallel
  {
    int y = 0;
    #pragma omp single
    x = 1;
    #pragma omp single copyprivate(y)
    { y = 5; }
    #pragma omp atomic
    ok += y == 5;
  }
  printf("%d %d\n", x, ok > 0);
  return 0;
}
// STDOUT: 1 1
// T1: Parallel_fork parallel@4; Parallel_begin parallel;
// T1: Single_enter single@7; Single_begin single; Single_end single; Implicit_barrier_enter single@7; Implicit_barrier_exit single; Single_exit single;
// T1: Single_enter single@9; Single_begin single@9; Single_end single; Single_exit single@9;
// T1: Atomic_count atomic;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Single_begin single = 2
// T2.COUNT: Single_enter single = 4
// T2.COUNT: Implicit_barrier_enter single@7 = 2
