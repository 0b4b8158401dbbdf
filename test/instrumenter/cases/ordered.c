#include <stdio.h>
int main(void) {
  int last = -1, ok = 1;
  #pragma omp parallel for ordered schedule(static, 1)
  for (int i = 0; i < 4; ++i) {
    #pragma omp ordered
    {
      ok &= last == i - 1;
      last = i;
    }
  }
  int a[8] = {0};
  #pragma omp parallel for ordered(1)
  for (int i = 1; i < 8; ++i) {
    #pragma omp ordered depend(sink: i - 1)
    a[i] = a[i - 1] + 1;
    #pragma omp ordered depend(source)
  }
  printf("%d %d\n", ok, a[7]);
  return 0;
}
// STDOUT: 1 7
// T1: Parallel_fork parallelfor@4; Parallel_begin parallelfor; For_enter parallelfor;
// T1: Ordered_enter ordered@6; Ordered_begin ordered; Ordered_end ordered; Ordered_exit ordered;
// T1: Ordered_enter ordered; Ordered_begin ordered; Ordered_end ordered; Ordered_exit ordered;
// T1: Ordered_enter ordered; Ordered_begin ordered; Ordered_end ordered; Ordered_exit ordered;
// T1: Ordered_enter ordered; Ordered_begin ordered; Ordered_end ordered; Ordered_exit ordered;
// T1: For_exit parallelfor; Parallel_end parallelfor; Parallel_join parallelfor;
// T1: Parallel_fork parallelfor@13; Parallel_begin parallelfor; For_enter parallelfor@13;
// T1: Ordered_enter ordereddepend@15; Ordered_exit ordereddepend; Ordered_enter ordereddepend@17; Ordered_exit ordereddepend@17;
// T1: Ordered_enter ordereddepend@15; Ordered_exit ordereddepend; Ordered_enter ordereddepend@17; Ordered_exit ordereddepend@17;
// T1: Ordered_enter ordereddepend@15; Ordered_exit ordereddepend; Ordered_enter ordereddepend@17; Ordered_exit ordereddepend@17;
// T1: Ordered_enter ordereddepend@15; Ordered_exit ordereddepend; Ordered_enter ordereddepend@17; Ordered_exit ordereddepend@17;
// T1: Ordered_enter ordereddepend@15; Ordered_exit ordereddepend; Ordered_enter ordereddepend@17; Ordered_exit ordereddepend@17;
// T1: Ordered_enter ordereddepend@15; Ordered_exit ordereddepend; Ordered_enter ordereddepend@17; Ordered_exit ordereddepend@17;
// T1: Ordered_enter ordereddepend@15; Ordered_exit ordereddepend; Ordered_enter ordereddepend@17; Ordered_exit ordereddepend@17;
// T1: For_exit parallelfor; Parallel_end parallelfor; Parallel_join parallelfor
// T2.COUNT: Ordered_begin ordered = 4
// T2.COUNT: Ordered_enter ordereddepend@15 = 7
