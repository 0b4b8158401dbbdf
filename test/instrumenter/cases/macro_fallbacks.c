#include <stdio.h>
#include <omp.h>
#define PFOR_LOOP(i, n) _Pragma("omp parallel for") for (int i = 0; i < n; ++i)
#define OMP_FOR _Pragma("omp for schedule(static)") for (int j = 0; j < 4; ++j)
#define TASK _Pragma("omp task if(0)")
#define LOCKED(l, stmt) omp_set_lock(l); stmt; omp_unset_lock(l)
int main(void) {
  int a[4] = {0}, x = 0;
  omp_lock_t l;
  omp_init_lock(&l);
  PFOR_LOOP(i, 4) a[i] = i;
  #pragma omp parallel
  {
    OMP_FOR a[j] += 1;
    #pragma omp single
    {
      TASK
      { LOCKED(&l, x++); }
    }
  }
  omp_destroy_lock(&l);
  printf("%d %d\n", a[3], x);
  return 0;
}
// EXPECT-WARNING: macro_fallbacks.c:11: warning: not instrumented: the structured block of 'parallel for' at line 11 lies inside a macro
// EXPECT-WARNING: macro_fallbacks.c:14: note: the implicit barrier of 'for' at line 14 is measured as part of the construct
// EXPECT-WARNING: macro_fallbacks.c:18: warning: not instrumented: omp_set_lock \(inside a macro\)
// STDOUT: 4 1
// T1: Lock_init_site lock@10; Init_lock -; Parallel_fork parallel@12; Parallel_begin parallel; For_enter for@14; For_exit for@14; Single_enter single@15; Single_begin single;
// T1: Task_create_begin task@17; Task_begin task@17; Task_end task@17; Task_create_end task@17; Single_end single;
// T1: Single_exit single;
// T1: Parallel_end parallel; Parallel_join parallel; Destroy_lock -
// JOIN-BARRIER: single@15
// TEXTUAL-DIFFERS: pragmas from macros are not expanded by the textual front end
