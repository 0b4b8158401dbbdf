/* Stacked constructs without braces: parallel / single / task, parallel /
 * master / taskgroup / task / loop, and a sections construct whose implicit
 * first section is an unbraced if with a task.  The tasks are undeferred
 * (if(0)) so that the event order is the same with both runtimes. */
#include <stdio.h>
int main(void) {
  int x = 0, y = 0, z = 0;
  #pragma omp parallel
  #pragma omp single
  #pragma omp task shared(x) if(0)
  x++;
  #pragma omp parallel
  #pragma omp master
  #pragma omp taskgroup
  #pragma omp task shared(y) if(0)
  for (int i = 0; i < 4; i++)
    #pragma omp atomic
    y++;
  #pragma omp parallel
  #pragma omp sections
  {
    if (x == 1)  /* not z: the other section may have added to it already */
      #pragma omp task shared(z) if(0)
      #pragma omp atomic
      z += 1;
    #pragma omp section
    #pragma omp atomic
    z += 10;
  }
  printf("%d %d %d\n", x, y, z);
  return 0;
}
// STDOUT: 1 4 11
// T1: Parallel_fork parallel@8; Parallel_begin parallel; Single_enter single@9; Single_begin single;
// T1: Task_create_begin task@10; Task_begin task@10; Task_end task@10; Task_create_end task@10;
// T1: Single_end single; Single_exit single;
// T1: Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallel@12; Parallel_begin parallel; Master_begin master@13; Taskgroup_enter taskgroup@14; Taskgroup_begin taskgroup;
// T1: Task_create_begin task@15; Task_begin task@15;
// T1: Atomic_count atomic@17; Atomic_count atomic@17;
// T1: Atomic_count atomic@17; Atomic_count atomic@17;
// T1: Task_end task@15; Task_create_end task@15; Taskgroup_end taskgroup; Taskgroup_exit taskgroup; Master_end master;
// T1: Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallel@19; Parallel_begin parallel; Sections_enter sections@20;
// T1: Section_begin section@22; Task_create_begin task@23; Task_begin task@23; Atomic_count atomic@24;
// T1: Task_end task@23; Task_create_end task@23; Section_end section;
// T1: Section_begin section@26; Atomic_count atomic@27; Section_end section;
// T1: Sections_exit sections;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Task_end task = 3
// T2.COUNT: Section_end section = 2
// T2.COUNT: Single_exit single@9 = 2
// JOIN-BARRIER: sections@20
// JOIN-BARRIER: single@9
