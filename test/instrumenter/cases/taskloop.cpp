#include <cstdio>
int main() {
  int sum = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskloop num_tasks(4) reduction(+:sum) default(none)
    for (int i = 0; i < 8; ++i)
      sum += i;
  }
  std::printf("%d\n", sum);
  return 0;
}
// STDOUT: 28
// T2.COUNT: Taskloop_enter taskloop@7 = 1
// T2.COUNT: Taskloop_exit taskloop@7 = 1
// T2.COUNT: Taskloop_task_begin taskloop@7 = 4
// T2.COUNT: Taskloop_task_end taskloop@7 = 4
