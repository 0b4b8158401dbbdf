// `taskloop simd` is measured as a taskloop (its simd part kept as is); it
// used to be left uninstrumented with a warning.
#include <cstdio>
int main() {
  int sum = 0;
  float v[64];
  #pragma omp parallel
  #pragma omp single
  #pragma omp taskloop simd num_tasks(4) reduction(+:sum) simdlen(4) default(none) shared(v)
  for (int i = 0; i < 64; ++i) {
    v[i] = 0.5f * i;
    sum += i;
  }
  std::printf("%d %g\n", sum, (double)v[63]);
  return 0;
}
// STDOUT: 2016 31.5
// T2.COUNT: Taskloop_enter taskloop@9 = 1
// T2.COUNT: Taskloop_exit taskloop@9 = 1
// T2.COUNT: Taskloop_task_begin taskloop@9 = 4
// T2.COUNT: Taskloop_task_end taskloop@9 = 4
