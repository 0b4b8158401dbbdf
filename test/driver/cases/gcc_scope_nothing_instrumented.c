// `scope` (OpenMP 5.1, gcc-12) and `nothing` as the body of an `if`: Clang 16
// rejects both.  With GCC the file is instrumented by the textual front end:
// the parallel region and the atomic are measured, `scope` (which ompp does
// not measure) gets one warning, and `nothing` is no statement (the `if`
// still guards `s = 0`).
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_STDERR: ^\S*gcc_scope_nothing_instrumented\.c:17: warning: not instrumented: 'scope' is not supported by ompp-instrument
// DRIVER_STDERR_LINES: 1
// DRIVER_THEN: OMPP_QUIET=1 OMP_NUM_THREADS=2 ./prog && python3 -c "import glob; from ompp_profile import read_profile; print(*sorted(r.kind + '@' + str(r.first_line) for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()))"
// DRIVER_THEN_STDOUT: ^2 1\nATOMIC@22 PARALLEL@15$
#include <stdio.h>
int main(void) {
  int s = 0, t = 1;
#pragma omp parallel num_threads(2) shared(t)
  {
#pragma omp scope reduction(+ : s)
    s += 1;
    if (s < 0)
#pragma omp nothing
      t = 0;
#pragma omp atomic
    t |= 1;
  }
  printf("%d %d\n", s, t);
  return 0;
}
