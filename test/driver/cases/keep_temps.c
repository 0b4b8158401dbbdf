// --keep-temps leaves the private temporary directory (under $TMPDIR) with
// the instrumented copy, and says where it is.
// DRIVER_ENV: TMPDIR={out}
// DRIVER_ARGS: --keep-temps -- {cc} -fopenmp -c {src}
// DRIVER_STDERR: ^ompp-instrument: keeping temporary files in {out}/ompp-instrument-
// DRIVER_EXISTS: keep_temps.o
// DRIVER_THEN: test -f ompp-instrument-*/*/keep_temps.c && grep -q POMP2_Parallel_fork ompp-instrument-*/*/keep_temps.c
// DRIVER_THEN: test "$(stat -c %a ompp-instrument-*)" = 700
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
