#include <stdio.h>
int main(void) {
  int x = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskgroup
    {
      #pragma omp task shared(x) if(0)
      {
        #pragma omp atomic
        x++;
      }
      #pragma omp taskyield
    }
  }
  printf("%d\n", x);
  return 0;
}
// STDOUT: 1
// T1: Parallel_fork parallel; Parallel_begin parallel; Single_enter single; Single_begin single;
// T1: Taskgroup_enter taskgroup@7; Taskgroup_begin taskgroup; Task_create_begin task@9;
// T1: Task_begin task; Atomic_count atomic; Task_end task; Task_create_end task;
// T1: Taskyield_begin taskyield@14; Taskyield_end taskyield; Taskgroup_end taskgroup; Taskgroup_exit taskgroup;
// T1: Single_end single; Single_exit single;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Taskgroup_exit taskgroup = 1
// T2.COUNT: Task_end task = 1
// JOIN-BARRIER: single@5
