/* A nested parallel region as the unbraced statement of an if, an if/else
 * or a while inside another parallel region.  When the outer region ended
 * after the inner pragma line, the inner body ran outside any nested team
 * and this program printed fewer executions and level 1, silently. */
#include <omp.h>
#include <stdio.h>
int main(void) {
  int runs = 0, deepest = 0, others = 0, rounds = 2;
  omp_set_max_active_levels(2);
  #pragma omp parallel num_threads(2)
  if (omp_get_thread_num() >= 0)
    #pragma omp parallel num_threads(2)
    {
      #pragma omp atomic
      runs++;
      #pragma omp critical
      deepest = omp_get_level() > deepest ? omp_get_level() : deepest;
    }
  #pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 0)
    #pragma omp parallel num_threads(2)
    {
      #pragma omp atomic
      runs++;
    }
  else
    #pragma omp parallel num_threads(2)
    #pragma omp atomic
    others++;
  #pragma omp parallel num_threads(2) firstprivate(rounds)
  while (rounds-- > 0)
    #pragma omp parallel num_threads(2)
    #pragma omp atomic
    runs++;
  printf("%d %d %d\n", runs, deepest, others);
  return 0;
}
// STDOUT: 14 2 2
// Thread numbers repeat in nested teams: no per-thread nesting check.
// NO-BALANCE
// T2.COUNT: Parallel_fork parallel@12 = 2
// T2.COUNT: Parallel_begin parallel@12 = 4
// T2.COUNT: Parallel_join parallel@21 = 1
// T2.COUNT: Parallel_join parallel@27 = 1
// T2.COUNT: Atomic_count atomic@28 = 2
// T2.COUNT: Parallel_begin parallel@32 = 8
// T2.COUNT: Parallel_end parallel@10 = 2
// T2.COUNT: Parallel_end parallel@19 = 2
// T2.COUNT: Parallel_join parallel@30 = 1
