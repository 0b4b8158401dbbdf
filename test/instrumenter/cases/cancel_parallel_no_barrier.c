/* A parallel region with `cancel parallel` gets no barrier of ompp's, neither
 * at its end nor for the `for` inside (whose implicit barrier is a
 * cancellation point): the cancelling thread jumps to the region's own join,
 * and an added barrier would wait for it forever (libgomp's
 * cancel-parallel-1.c hung). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void) {
  int a[64];
  #pragma omp parallel
  {
    #pragma omp barrier
    if (omp_get_thread_num() == 0) {
      #pragma omp cancel parallel
    }
    #pragma omp for
    for (int i = 0; i < 64; i++)
      a[i] = i;
  }
  printf("done %d\n", a[0] == 0 || 1);
  return 0;
}
// Clang 16 with libomp hangs on this program without ompp too (1 run in 2 here).
// COMPILERS: gcc
// ENV: OMP_CANCELLATION=true
// STDOUT: done 1
// NO-BALANCE
// T1.COUNT: Implicit_barrier_enter parallel = 0
// T1.COUNT: Implicit_barrier_enter for = 0
// T2.COUNT: Implicit_barrier_enter for = 0
