/* Constructs in a function of a `begin declare variant` scope whose context
 * (the host) matches are instrumented, the function named with its variant;
 * ompp's file-scope definitions go before the scope, as before a `declare
 * target` one (declare_target.c), so that they never become variants.
 * gcc-12 does not know `begin declare variant`. */
#include <stdio.h>
static int team_size(void) { return 0; }
#pragma omp begin declare variant match(device = {kind(host)})
static int team_size(void) {
  int n = 0;
  #pragma omp parallel
  {
    #pragma omp critical
    ++n;
  }
  return n;
}
#pragma omp end declare variant
int main(void) {
  printf("%d\n", team_size() > 0);
  return 0;
}
// COMPILERS: clang
// STDOUT: 1
// T1: Parallel_fork parallel@10; Parallel_begin parallel;
// T1: Critical_enter critical@12; Critical_begin critical; Critical_end critical; Critical_exit critical;
// T1: Parallel_end parallel; Parallel_join parallel
// EXPECT-CTC: function=team_size\[device=\{kind\(host\)\}\]
