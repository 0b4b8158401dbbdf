#include <stdio.h>
int main(void) {
  int a = 0, b = 0, c = 0;
  #pragma omp parallel
  {
    #pragma omp master
    a++;
    #pragma omp masked filter(0)
    { b++; }
  }
  #pragma omp parallel master
  c++;
  #pragma omp parallel masked num_threads(2) filter(0)
  { c++; }
  printf("%d %d %d\n", a, b, c);
  return 0;
}
// STDOUT: 1 1 2
// T1: Parallel_fork parallel@4; Parallel_begin parallel; Master_begin master@6; Master_end master; Masked_begin masked@8; Masked_end masked;
// T1: Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallelmaster@11; Parallel_begin parallelmaster; Masked_begin parallelmaster; Masked_end parallelmaster;
// T1: Parallel_end parallelmaster; Parallel_join parallelmaster;
// T1: Parallel_fork parallelmasked@13; Parallel_begin parallelmasked; Masked_begin parallelmasked; Masked_end parallelmasked;
// T1: Parallel_end parallelmasked; Parallel_join parallelmasked
// T2.1: Parallel_begin parallel; Parallel_end parallel;
// T2.1: Parallel_begin parallelmaster; Parallel_end parallelmaster;
// T2.1: Parallel_begin parallelmasked; Parallel_end parallelmasked
