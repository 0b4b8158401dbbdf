// OpenMP syntax GCC 12 knows and Clang 16 does not (`scope`): with -c the
// file is compiled unchanged with one warning, and the object is written.
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: -- {cc} -fopenmp -c {src}
// DRIVER_EXISTS: gcc_only_openmp_syntax_compiled_unchanged.o
// DRIVER_STDERR: ^ompp-instrument: warning: \S*gcc_only_openmp_syntax_compiled_unchanged\.c is compiled unchanged.*:\d+:\d+: error: expected an OpenMP directive\)$
// DRIVER_STDERR_LINES: 1
int count(void) {
  int s = 0;
#pragma omp parallel
#pragma omp scope reduction(+ : s)
  s += 1;
  return s;
}
