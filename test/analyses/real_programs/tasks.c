/* Tasks: created in a single, run at barriers and taskwaits, nested,
 * taskgroup, taskloop, taskyield, an undeferred task. */
#include <omp.h>
#include <stdio.h>

static long fib(int n) {
  if (n < 2) return n;
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  long result = 0, sum = 0;
#pragma omp parallel
  {
#pragma omp single
    result = fib(12);
#pragma omp single
    {
#pragma omp taskgroup
      {
        for (int i = 0; i < 8; ++i) {
#pragma omp task
          {
#pragma omp atomic
            sum += i;
          }
        }
      }
#pragma omp taskloop
      for (int i = 0; i < 16; ++i) {
#pragma omp atomic
        sum += i;
      }
#pragma omp task if (0)
      {
#pragma omp taskyield
#pragma omp atomic
        sum += 1;
      }
    }
  }
  printf("%ld %ld\n", result, sum);
  return 0;
}
