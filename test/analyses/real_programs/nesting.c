/* Nested parallel regions, a parallel for nested in a parallel for,
 * user regions and recursion through a parallel region. */
#include <omp.h>
#include <stdio.h>

static double total;

static void level(int depth) {
#pragma omp parallel for reduction(+ : total) num_threads(2)
  for (int i = 0; i < 100; ++i) {
    total += i * 0.5;
    if (depth > 0 && i == 0) level(depth - 1);
  }
}

int main(void) {
  omp_set_max_active_levels(2);
#pragma pomp inst begin(outer)
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel for
    for (int i = 0; i < 100; ++i) {
#pragma omp atomic
      total += i;
    }
  }
#pragma pomp inst end(outer)
  level(2);
  printf("%f\n", total);
  return 0;
}
