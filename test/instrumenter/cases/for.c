#include <stdio.h>
int main(void) {
  int a[100], s = 0;
  #pragma omp parallel
  {
    #pragma omp for schedule(dynamic, (2)*(3))
    for (int i = 0; i < 100; ++i) a[i] = i;
    #pragma omp for reduction(+:s) nowait
    for (int i = 0; i < 100; ++i) s += a[i];
  }
  printf("%d\n", s);
  return 0;
}
// STDOUT: 4950
// T1: Parallel_fork parallel@4; Parallel_begin parallel;
// T1: For_enter for@6; Implicit_barrier_enter for@6; Implicit_barrier_exit for; For_exit for;
// T1: For_enter for@8; For_exit for@8;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.1: Parallel_begin parallel; For_enter for@6; Implicit_barrier_enter for@6; Implicit_barrier_exit for; For_exit for;
// T2.1: For_enter for@8; For_exit for@8;
// T2.1: Parallel_end parallel
