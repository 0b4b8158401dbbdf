// Compile and link two sources and an object in one command; the program runs.
// DRIVER_WRITE: helper.c: int helper(int x) { return 2 * x; }
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp -c {dir}/helper.c -o helper.o
// DRIVER_WRITE: other.c: int other(void) {\n  int n = 0;\n#pragma omp parallel reduction(+ : n)\n  n = 1;\n  return n > 0;\n}
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} {dir}/other.c helper.o -o prog
// DRIVER_THEN: OMP_NUM_THREADS=2 ./prog
// DRIVER_THEN_STDOUT: ^result 42$
#include <stdio.h>
int helper(int);
int other(void);
int main(void) {
  int r = 0;
#pragma omp parallel num_threads(1)
  r = helper(21) * other();
  printf("result %d\n", r);
  return 0;
}
