// A taskloop whose loop body is an unbraced if with an atomic: the task
// guard's block closes after the whole body; and a range-for body that is a
// task inside a single.
#include <cstdio>
#include <vector>
int main() {
  int odd = 0, seen = 0;
  std::vector<int> items = {1, 2, 3};
  #pragma omp parallel
  #pragma omp single
  #pragma omp taskloop num_tasks(2) shared(odd)
  for (int i = 0; i < 8; ++i)
    if (i % 2)
      #pragma omp atomic
      odd += i;
  #pragma omp parallel
  #pragma omp single
  for (int v : items)
    #pragma omp task shared(seen)
    #pragma omp atomic
    seen += v;
  std::printf("%d %d\n", odd, seen);
  return 0;
}
// STDOUT: 16 6
// T2.COUNT: Taskloop_enter taskloop@11 = 1
// T2.COUNT: Taskloop_task_begin taskloop@11 = 2
// T2.COUNT: Taskloop_task_end taskloop@11 = 2
// T2.COUNT: Atomic_count atomic@14 = 4
// T2.COUNT: Task_end task@19 = 3
// T2.COUNT: Single_exit single@17 = 2
