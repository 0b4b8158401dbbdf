// The parse sees the _OPENMP the real compiler defines (gcc 12: 201511, as
// the date of OpenMP 4.5), so a branch chosen by it is the one compiled:
// here only that branch is valid C for Clang, and it is instrumented.
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: --emit-source -- {cc} -fopenmp -c {src}
// DRIVER_STDOUT: POMP2_Parallel_fork
// DRIVER_NOT_STDERR: warning
int f(int n) {
#if _OPENMP == 201511
#pragma omp parallel
  n++;
#else
  this is not C;
#endif
  return n;
}
