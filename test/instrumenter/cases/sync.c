#include <stdio.h>
int main(void) {
  int x = 0, v = 0;
  #pragma omp parallel
  {
    #pragma omp critical
    x++;
    #pragma omp critical(named) hint(0)
    { x++; }
    #pragma omp atomic update
    x += 1;
    #pragma omp atomic read
    v = x;
    #pragma omp atomic capture
    { v = x; x++; }
    #pragma omp flush(x)
    #pragma omp barrier
    #pragma omp flush
  }
  printf("%d %d\n", x % 4, v > 0);
  return 0;
}
// STDOUT: 0 1
// T1: Parallel_fork parallel; Parallel_begin parallel;
// T1: Critical_enter critical@6; Critical_begin critical; Critical_end critical; Critical_exit critical;
// T1: Critical_enter critical@8; Critical_begin critical@8; Critical_end critical@8; Critical_exit critical@8;
// T1: Atomic_count atomic@10; Atomic_count atomic@12;
// T1: Atomic_count atomic@14;
// T1: Flush_count flush@16; Barrier_enter barrier@17; Barrier_exit barrier@17; Flush_count flush@18;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Critical_begin critical@8 = 2
// T2.COUNT: Barrier_exit barrier = 2
// EXPECT-CTC: regionType=atomic\*.*timing=count\*
// EXPECT-CTC: regionType=flush\*.*timing=count\*
