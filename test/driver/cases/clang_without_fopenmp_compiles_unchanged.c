// Compiled by clang without -fopenmp, OpenMP syntax Clang 16 does not know
// (`scope`) is an ignored pragma, and the compile succeeds; ompp's parse
// (always with OpenMP) fails, so the file is compiled unchanged, with one
// warning, not an error.
// DRIVER_COMPILERS: clang
// DRIVER_ARGS: -- {cc} -c {src}
// DRIVER_EXISTS: clang_without_fopenmp_compiles_unchanged.o
// DRIVER_STDERR: ^ompp-instrument: warning: \S*clang_without_fopenmp_compiles_unchanged\.c is compiled unchanged.*error: expected an OpenMP directive\)$
// DRIVER_STDERR_LINES: 1
int count(void) {
  int s = 0;
#pragma omp scope
  s += 1;
  return s;
}
