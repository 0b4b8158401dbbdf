#include <stdio.h>
static int fib(int n) {
  int x = 0, y = 0;
  if (n < 2)
    return n;
  #pragma omp task shared(x) firstprivate(n) if(n > 3) final(n < 3) mergeable priority(1)
  x = fib(n - 1);
  #pragma omp task shared(y) untied default(shared) depend(out: y)
  {
    y = fib(n - 2);
  }
  #pragma omp taskwait
  return x + y;
}
int main(void) {
  int r = 0;
  #pragma omp parallel
  #pragma omp single
  r = fib(3);
  printf("%d\n", r);
  return 0;
}
// EXPECT-WARNING: ^$|note: untied task made tied
// STDOUT: 2
// Deferred tasks run at different scheduling points under libgomp and libomp: counts only.
// T1.PREFIX: Parallel_fork parallel@17; Parallel_begin parallel; Single_enter single@18; Single_begin single;
// T1.PREFIX: Task_create_begin task@6; Task_begin task@6;
// T1.PREFIX:   Task_create_begin task@6; Task_begin task@6; Task_end task@6; Task_create_end task@6;
// T1.COUNT: Task_create_begin task@8 = 2
// T1.COUNT: Task_end task@8 = 2
// T1.COUNT: Taskwait_end taskwait@12 = 2
// T2.COUNT: Task_begin task@6 = 2
// T2.COUNT: Task_begin task@8 = 2
// T2.COUNT: Task_create_begin task = 4
