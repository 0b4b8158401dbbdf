// A program whose only OpenMP calls are lock calls: once they are renamed to
// libompp's wrappers, the object must still need the OpenMP runtime, or the
// linker's --as-needed drops it and the wrappers find no omp_*_lock to call
// (libgomp's lock-3.c). Linked with --as-needed explicitly, as some
// distributions' compilers do by default.
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -Wl,--as-needed -o prog
// DRIVER_THEN: OMPP_QUIET=1 ./prog
// DRIVER_THEN_STDOUT: ^1 2 0$
#include <omp.h>
#include <stdio.h>
int main(void) {
  omp_nest_lock_t lock;
  omp_init_nest_lock(&lock);
  int first = omp_test_nest_lock(&lock);
  int second = omp_test_nest_lock(&lock);
  omp_unset_nest_lock(&lock);
  omp_unset_nest_lock(&lock);
  omp_destroy_nest_lock(&lock);
  printf("%d %d 0\n", first, second);
  return 0;
}
