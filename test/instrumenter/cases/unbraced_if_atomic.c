/* parallel -> if -> atomic, with else branches, a macro and a comment at
 * the end: the parallel region ends after the whole if statement. */
#include <omp.h>
#include <stdio.h>
#define BUMP(v) v += 1
int main(void) {
  int threads = 0, yes = 0, no = 0, first = 0;
  #pragma omp parallel
  #pragma omp single
  threads = omp_get_num_threads();
  #pragma omp parallel
  if (omp_get_thread_num() >= 0)
    #pragma omp atomic
    yes++;
  #pragma omp parallel
  if (omp_get_thread_num() == 0)
    #pragma omp atomic
    BUMP(first);
  else
    #pragma omp atomic
    no += 1 /* a comment before the semicolon */ ;
  printf("%d %d %d\n", yes == threads, first, no == threads - 1);
  return 0;
}
// STDOUT: 1 1 1
// T1: Parallel_fork parallel@8; Parallel_begin parallel; Single_enter single@9; Single_begin single; Single_end single;
// T1: Single_exit single;
// T1: Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallel@11; Parallel_begin parallel; Atomic_count atomic@13;
// T1: Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallel@15; Parallel_begin parallel; Atomic_count atomic@17;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Atomic_count atomic@13 = 2
// T2.COUNT: Atomic_count atomic@17 = 1
// T2.COUNT: Atomic_count atomic@20 = 1
// T2.COUNT: Parallel_end parallel@15 = 2
// JOIN-BARRIER: single@9
