/* Synchronisation constructs and locks. */
#include <omp.h>
#include <stdio.h>

int main(void) {
  long sum = 0, atomic_sum = 0;
  omp_lock_t lock;
  omp_nest_lock_t nest;
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest);
#pragma omp parallel
  {
    for (int i = 0; i < 50; ++i) {
#pragma omp critical(update)
      sum += i;
#pragma omp atomic
      atomic_sum += i;
    }
#pragma omp barrier
#pragma omp flush
    omp_set_lock(&lock);
    sum += 1;
    omp_unset_lock(&lock);
    omp_set_nest_lock(&nest);
    omp_set_nest_lock(&nest);
    sum += 1;
    omp_unset_nest_lock(&nest);
    omp_unset_nest_lock(&nest);
#pragma omp for ordered
    for (int i = 0; i < 20; ++i) {
#pragma omp ordered
      sum += i;
    }
  }
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);
  printf("%ld %ld\n", sum, atomic_sum);
  return 0;
}
