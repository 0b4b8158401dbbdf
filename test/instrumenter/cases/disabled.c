#include <stdio.h>
#include <omp.h>
int main(void) {
  int x = 0;
  omp_lock_t l;
  omp_init_lock(&l);
  #pragma omp parallel
  {
    #pragma omp atomic
    x++;
    #pragma omp critical
    x++;
    #pragma omp barrier
  }
  omp_destroy_lock(&l);
  printf("%d\n", x > 0);
  return 0;
}
// REWRITE-ARGS: --disable=sync
// STDOUT: 1
// T1: Parallel_fork parallel; Parallel_begin parallel; Parallel_end parallel; Parallel_join parallel
