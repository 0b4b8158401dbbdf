// A loop increment GCC accepts and Clang 16 rejects ("increment clause of
// OpenMP for loop must perform simple addition or subtraction"): with GCC
// the file is instrumented by the textual front end and measured.
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_STDERR_LINES: 0
// DRIVER_THEN: OMPP_QUIET=1 OMP_NUM_THREADS=2 ./prog && python3 -c "import glob; from ompp_profile import read_profile; print(*sorted(r.kind + '@' + str(r.first_line) for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()))"
// DRIVER_THEN_STDOUT: ^90\nLOOP@14 PARALLEL@12$
#include <stdio.h>
int main(void) {
  int a[20] = {0}, i;
#pragma omp parallel
  {
#pragma omp for
    for (i = 0; i < 20; i = i + 1 + 1)
      a[i] = i;
  }
  int s = 0;
  for (i = 0; i < 20; i++)
    s += a[i];
  printf("%d\n", s);
  return 0;
}
