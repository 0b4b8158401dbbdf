#include <stdio.h>
int main(void) {
  int a[64], s = 0, last = -1, i;
  float f[64], g[64];
  #pragma omp parallel for default(none) shared(a) lastprivate(last) schedule(static) num_threads(2)
  for (i = 0; i < 64; ++i) { a[i] = i; last = i; }
  #pragma omp parallel for simd reduction(+:s) simdlen(4) firstprivate(last) if(simd: 1)
  for (int j = 0; j < 64; ++j) s += a[j] + last - 63;
  #pragma omp for simd
  for (int j = 0; j < 64; ++j) f[j] = (float)j;
  #pragma omp parallel loop
  for (int j = 0; j < 64; ++j) g[j] = 2.0f;
  #pragma omp parallel
  {
    #pragma omp loop
    for (int j = 0; j < 64; ++j) g[j] = 1.0f; /* clang 16 miscompiles 'loop': results unchecked */
  }
  printf("%d %d %g\n", last, s, (double)f[63]);
  (void)g;
  return 0;
}
// STDOUT: 63 2016 63
// T1: Parallel_fork parallelfor@5; Parallel_begin parallelfor; For_enter parallelfor; For_exit parallelfor; Parallel_end parallelfor; Parallel_join parallelfor;
// T1: Parallel_fork parallelforsimd@7; Parallel_begin parallelforsimd; For_enter parallelforsimd; For_exit parallelforsimd; Parallel_end parallelforsimd; Parallel_join parallelforsimd;
// T1: For_enter forsimd@9; Implicit_barrier_enter forsimd; Implicit_barrier_exit forsimd; For_exit forsimd;
// T1: Parallel_fork parallel@11; Parallel_begin parallel@11; For_enter loop@11; For_exit loop@11; Parallel_end parallel@11; Parallel_join parallel@11;
// T1: Parallel_fork parallel@13; Parallel_begin parallel; For_enter loop@15; For_exit loop; Parallel_end parallel; Parallel_join parallel
// T2.1: Parallel_begin parallelfor; For_enter parallelfor; For_exit parallelfor; Parallel_end parallelfor;
// T2.1: Parallel_begin parallelforsimd; For_enter parallelforsimd; For_exit parallelforsimd; Parallel_end parallelforsimd;
// T2.1: Parallel_begin parallel@11; For_enter loop@11; For_exit loop@11; Parallel_end parallel@11;
// T2.1: Parallel_begin parallel; For_enter loop@15; For_exit loop; Parallel_end parallel
