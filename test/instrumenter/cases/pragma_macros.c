#include <stdio.h>
#define PRAGMA(x) _Pragma(#x)
#define OMP_PARALLEL _Pragma("omp parallel")
#define OMP_PFOR(n) PRAGMA(omp parallel for num_threads(n))
#define ATOMIC_INC(v) _Pragma("omp atomic") v++
int main(void) {
  int x = 0, a[16];
  OMP_PARALLEL
  {
    ATOMIC_INC(x);
  }
  _Pragma("omp parallel for schedule(static)") for (int i = 0; i < 16; ++i) a[i] = i;
  OMP_PFOR(2)
  for (int i = 0; i < 16; ++i) a[i] += i;
  PRAGMA(omp parallel)
  {
    PRAGMA(omp for)
    for (int i = 0; i < 16; ++i) a[i] += 1;
  }
  printf("%d %d\n", x > 0, a[15]);
  return 0;
}
// STDOUT: 1 31
// T1: Parallel_fork parallel@8; Parallel_begin parallel@8; Atomic_count atomic@10;
// T1: Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallelfor@12; Parallel_begin parallelfor; For_enter parallelfor; For_exit parallelfor; Parallel_end parallelfor; Parallel_join parallelfor;
// T1: Parallel_fork parallelfor@13; Parallel_begin parallelfor; For_enter parallelfor; For_exit parallelfor; Parallel_end parallelfor; Parallel_join parallelfor;
// T1: Parallel_fork parallel@15; Parallel_begin parallel@15; For_enter for@17; For_exit for@17;
// T1: Parallel_end parallel; Parallel_join parallel
// JOIN-BARRIER: for@17
// TEXTUAL-DIFFERS: pragmas from macros are not expanded by the textual front end
