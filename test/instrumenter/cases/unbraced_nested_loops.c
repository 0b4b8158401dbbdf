/* A parallel for whose loop body is an unbraced parallel for, and a loop
 * whose body is an unbraced taskloop (shapes of libgomp's pr49898-2.c and
 * task-reduction-8.c): every end code follows the whole inner loop. */
#include <stdio.h>
int main(void) {
  int sum = 0, total = 0;
  #pragma omp parallel for reduction(+:sum)
  for (int i = 0; i < 4; i++)
    #pragma omp parallel for reduction(+:sum)
    for (int j = 0; j < 5; j++)
      sum += i * j;
  #pragma omp parallel
  #pragma omp single
  for (int r = 0; r < 2; r++)
    #pragma omp taskloop reduction(+:total)
    for (int i = 0; i < 10; i++)
      total += i;
  printf("%d %d\n", sum, total);
  return 0;
}
// STDOUT: 60 90
// Thread numbers repeat in nested teams: no per-thread nesting check.
// NO-BALANCE
// T1.COUNT: Parallel_fork parallelfor@9 = 4
// T1.COUNT: For_exit parallelfor@9 = 4
// T1.COUNT: Taskloop_exit taskloop@15 = 2
// T2.COUNT: Parallel_join parallelfor@7 = 1
// T2.COUNT: Parallel_join parallelfor@9 = 4
// T2.COUNT: Single_exit single@13 = 2
