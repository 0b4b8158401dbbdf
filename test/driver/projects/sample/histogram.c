#include "histogram.h"

#include <omp.h>

void histogram(const int *values, int n, long *counts, int bins) {
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel
  {
    long local[16] = {0};
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
      local[values[i] % bins]++;
    omp_set_lock(&lock);
    for (int b = 0; b < bins; ++b)
      counts[b] += local[b];
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
}
