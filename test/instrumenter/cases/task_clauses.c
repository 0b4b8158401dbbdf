#include <stdio.h>
/* ompp passes a task's if and final clauses to POMP2_Task_create_begin_final,
   evaluated once before the creation: the recorder reports an error when a
   task created with if value 0 does not run inside its creation. */
static int evaluated;
static int once(int v) { /* called by one thread at a time */
  evaluated++;
  return v;
}
int main(void) {
  int x = 0, y = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task shared(x) if(task: once(0))
    {
      #pragma omp task shared(x) final(once(1) > 0)
      {
        #pragma omp task shared(x)
        x += 1;
        #pragma omp taskwait
        x += 10;
      }
      #pragma omp taskwait
    }
    #pragma omp task shared(y) if(y == 0) final(0)
    y = 100;
  }
  printf("%d %d %d\n", x, y, evaluated);
  return 0;
}
// STDOUT: 11 100 2
// T1.PREFIX: Parallel_fork parallel@12; Parallel_begin parallel; Single_enter single@13; Single_begin single;
// T1.PREFIX: Task_create_begin task@15; Task_begin task@15; Task_create_begin task@17;
// T1.COUNT: Task_begin task@17 = 1
// T1.COUNT: Task_end task@19 = 1
// T1.COUNT: Taskwait_end taskwait@21 = 1
// T1.COUNT: Task_create_end task@26 = 1
// T2.COUNT: Task_begin task = 4
// T2.COUNT: Task_end task = 4
// EXPECT-CTC: regionType=task\*sscl=[^*]*:15:15\*.*\*hasIf=1
