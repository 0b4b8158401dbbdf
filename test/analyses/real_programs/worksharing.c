/* Worksharing constructs, combined and not: every figure of the profile
 * must add up.  PARALLEL_FOR_INSTANCES instances of one `parallel for`. */
#include <omp.h>
#include <stdio.h>

#define PARALLEL_FOR_INSTANCES 100
#define N 2000

static double a[N];

static void work(int i) { a[i] = a[i] * 0.5 + i; }

int main(void) {
  for (int rep = 0; rep < PARALLEL_FOR_INSTANCES; ++rep) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; ++i) work(i);
  }
#pragma omp parallel for simd
  for (int i = 0; i < N; ++i) a[i] += 1.0;
#pragma omp parallel loop
  for (int i = 0; i < N; ++i) a[i] -= 1.0;
#pragma omp parallel sections
  {
#pragma omp section
    work(1);
#pragma omp section
    work(2);
#pragma omp section
    work(3);
  }
#pragma omp parallel master
  work(4);
#pragma omp parallel masked
  work(5);
#pragma omp parallel
  {
#pragma omp for simd
    for (int i = 0; i < N; ++i) a[i] *= 1.5;
#pragma omp for nowait
    for (int i = 0; i < N; ++i) work(i);
#pragma omp loop
    for (int i = 0; i < N; ++i) a[i] += 2.0;
#pragma omp sections
    {
#pragma omp section
      work(6);
#pragma omp section
      work(7);
    }
#pragma omp single
    work(8);
#pragma omp master
    work(9);
#pragma omp masked
    work(10);
  }
  printf("%f\n", a[N / 2]);
  return 0;
}
