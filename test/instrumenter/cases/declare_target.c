/* The first instrumented function lies in a `declare target` scope: ompp's
 * file-scope definitions (<pomp2/pomp2_ompp.h>, the region table) go before
 * the scope, not inside, where they would become device declarations and
 * clang-16 rejects the header's thread-local cache ("threadprivate variables
 * cannot be used in target constructs"; libgomp's target-critical-1.c).  The
 * `declare target to(...)` inside opens no scope of its own. */
#include <stdio.h>
int counted;
#pragma omp declare target
#pragma omp declare target to(counted)
static int team_size(void) {
  int n = 0;
  #pragma omp parallel
  {
    #pragma omp critical
    ++n;
  }
  return n;
}
#pragma omp end declare target
int main(void) {
  int n = 0;
  #pragma omp target map(from: n)
  n = team_size();
  printf("%d\n", n > 0);
  return 0;
}
// EXPECT-WARNING: note: 'target' left as is
// STDOUT: 1
// T1: Parallel_fork parallel@13; Parallel_begin parallel;
// T1: Critical_enter critical@15; Critical_begin critical; Critical_end critical; Critical_exit critical;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Critical_begin critical@15 = 2
