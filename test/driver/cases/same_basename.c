// Two sources with the same file name in different directories, linked in one
// command: their instrumented copies and objects must not collide.
// DRIVER_WRITE: lib/same_basename.c: int from_lib(void) { return 7; }
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} {dir}/lib/same_basename.c -o prog
// DRIVER_THEN: ./prog
// DRIVER_THEN_STDOUT: ^lib says 7$
#include <stdio.h>
int from_lib(void);
int main(void) {
  int v = 0;
#pragma omp parallel num_threads(1)
  v = from_lib();
  printf("lib says %d\n", v);
  return 0;
}
