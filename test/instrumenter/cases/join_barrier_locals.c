// A worksharing construct that ends its parallel region keeps its implicit
// barrier when the region's own frame holds variables its tasks may still use
// (a local of the region's block, a private copy): leaving the block before
// the tasks ran would let them read a dead variable (libgomp depend-6.c,
// antidep3, aborted about 1 run in 3 under GCC when the barrier was dropped).
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int seen = 0;
  #pragma omp parallel
  {
    int x = 1;
    #pragma omp single
    {
      #pragma omp task shared(x, seen) depend(in: x)
      if (x == 1) {
        #pragma omp atomic
        seen++;
      }
      #pragma omp task shared(x) depend(out: x)
      x = 2;
    }
  }
  int y = 0;
  #pragma omp parallel firstprivate(y)
  #pragma omp single
  {
    #pragma omp task shared(y, seen)
    if (y == 0) {
      #pragma omp atomic
      seen++;
    }
  }
  printf("%d\n", seen);
  return 0;
}
// STDOUT: 2
// T1.COUNT: Implicit_barrier_enter single = 2
// T2.COUNT: Implicit_barrier_enter single = 4
