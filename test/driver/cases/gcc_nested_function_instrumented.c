// A GNU nested function: GCC accepts it, Clang 16 cannot parse it.  With GCC
// the file is instrumented by ompp's textual front end, silently, and the
// program runs as without ompp and is measured.
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_STDERR_LINES: 0
// DRIVER_THEN: OMPP_QUIET=1 OMP_NUM_THREADS=2 ./prog && python3 -c "import glob; from ompp_profile import read_profile; print(*sorted(r.kind + '@' + str(r.first_line) for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()))"
// DRIVER_THEN_STDOUT: ^total 55\nPARALLEL_LOOP@13$
#include <stdio.h>
int main(void) {
  int total = 0;
  int next(int x) { return x + 1; }
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < 10; i++)
    total += next(i);
  printf("total %d\n", total);
  return 0;
}
