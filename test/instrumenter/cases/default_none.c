#include <stdio.h>
int main(void) {
  int a[32], s = 0, i, last = 0;
  #pragma omp parallel default(none) shared(a, s)
  {
    #pragma omp for
    for (int j = 0; j < 32; ++j) a[j] = j;
    #pragma omp single
    {
      s = 1;
      #pragma omp task default(none) shared(s)
      {
        #pragma omp atomic
        s++;
      }
    }
    #pragma omp critical
    s += 0;
  }
  #pragma omp parallel for default(none) shared(a) lastprivate(last) firstprivate(s)
  for (i = 0; i < 32; ++i) last = a[i] + s - 2;
  printf("%d\n", last);
  return 0;
}
// STDOUT: 31
// T1.COUNT: Task_begin task@11 = 1
// T1.COUNT: Parallel_fork parallelfor@20 = 1
// T1.COUNT: For_enter for@6 = 1
// T2.COUNT: Critical_begin critical@17 = 2
