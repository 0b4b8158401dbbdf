#include <stdio.h>
#line 100 "generated.y"
int main(void) {
  int x = 0;
  #pragma omp parallel
  {
    #pragma omp atomic
    x++;
  }
  printf("%d %d\n", x > 0, __LINE__);
  return 0;
}
int unused_line_check(void) { int unused; return 0; }
// The input's own #line directives are kept by every #line the rewriter adds.
// EXPECT-COMPILER-WARNING: generated.y:110:\d+: warning: unused variable
// STDOUT: 1 107
// T1: Parallel_fork parallel@102; Parallel_begin parallel; Atomic_count atomic@104;
// T1: Parallel_end parallel; Parallel_join parallel
