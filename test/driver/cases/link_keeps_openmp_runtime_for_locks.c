// A program whose only OpenMP calls are lock calls: ompp renames them to
// libompp's POMP2_* wrappers, and the OpenMP runtime must still be linked
// (GCC's --as-needed would drop it: no symbol of it is left in the program).
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_THEN: readelf -d prog | grep -Eq 'NEEDED.*lib(gomp|omp)\.so'
// DRIVER_THEN: ./prog
// DRIVER_THEN_STDOUT: ^locked 1$
#include <omp.h>
#include <stdio.h>
int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  omp_set_lock(&lock);
  int held = !omp_test_lock(&lock);
  omp_unset_lock(&lock);
  omp_destroy_lock(&lock);
  printf("locked %d\n", held);
  return 0;
}
