/* for -> critical, for -> if/else -> critical/atomic and parallel for ->
 * critical without braces: the loop's exit and barrier follow the whole loop. */
#include <stdio.h>
int main(void) {
  int sum = 0, odd = 0, even = 0, total = 0;
  #pragma omp parallel
  {
    #pragma omp for
    for (int i = 0; i < 100; i++)
      #pragma omp critical
      sum += i;
    #pragma omp for
    for (int i = 0; i < 10; i++)
      if (i % 2)
        #pragma omp critical (odd)
        odd += i;
      else
        #pragma omp atomic
        even += i;
  }
  #pragma omp parallel for
  for (int i = 0; i < 10; i++)
    #pragma omp critical
    total += i;
  printf("%d %d %d %d\n", sum, odd, even, total);
  return 0;
}
// STDOUT: 4950 25 20 45
// T1.COUNT: Critical_begin critical@10 = 100
// T1.COUNT: Critical_exit critical@15 = 5
// T1.COUNT: Atomic_count atomic@18 = 5
// T1.COUNT: Critical_end critical@23 = 10
// T2.COUNT: For_exit for@8 = 2
// T2.COUNT: For_exit for@12 = 2
// T2.COUNT: Implicit_barrier_exit for@12 = 0
// T2.COUNT: Critical_enter critical = 115
// T2.COUNT: Parallel_end parallelfor@21 = 2
// JOIN-BARRIER: for@12
