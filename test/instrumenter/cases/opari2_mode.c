#include <stdio.h>
#include <omp.h>
int main(void) {
  int x = 0, y = 0;
  omp_lock_t l;
  omp_init_lock(&l);
  #pragma omp parallel for schedule(dynamic, 2) reduction(+:x)
  for (int i = 0; i < 8; ++i) x += i;
  #pragma omp parallel
  {
    #pragma omp masked
    x++;
    #pragma omp single
    omp_set_lock(&l);
    #pragma omp master
    omp_unset_lock(&l);
    #pragma omp atomic
    y++;
    #pragma omp flush
  }
  #pragma pomp inst begin(tail)
  omp_destroy_lock(&l);
  #pragma pomp inst end(tail)
  printf("%d\n", x + 0 * y);
  return 0;
}
// REWRITE-ARGS: --opari2 --unit-id=abc123
// EXPECT-WARNING: opari2_mode.c:11: note: 'masked' left as is
// EXPECT-SYMBOL: T POMP2_Init_reg_abc123_6$
// EXPECT-SYMBOL: T POMP2_USER_Init_reg_abc123_1$
// STDOUT: 29
// T1: Init_lock -; Parallel_fork parallelfor@7; Parallel_begin parallelfor; For_enter parallelfor; Implicit_barrier_enter parallelfor; Implicit_barrier_exit parallelfor; For_exit parallelfor; Parallel_end parallelfor; Parallel_join parallelfor;
// T1: Parallel_fork parallel@9; Parallel_begin parallel; Single_enter single@13; Single_begin single; Set_lock -; Single_end single; Implicit_barrier_enter single; Implicit_barrier_exit single; Single_exit single;
// T1: Master_begin master@15; Unset_lock -; Master_end master;
// T1: Atomic_enter atomic@17; Atomic_exit atomic; Flush_enter flush@19; Flush_exit flush;
// T1: Implicit_barrier_enter parallel; Implicit_barrier_exit parallel; Parallel_end parallel; Parallel_join parallel;
// T1: Begin userRegion@21; Destroy_lock -; End userRegion@21
