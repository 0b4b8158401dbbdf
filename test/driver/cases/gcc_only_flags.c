// Flags Clang does not know are kept for gcc but not given to Clang's parse.
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: -- {cc} -fopenmp -fconserve-stack -fipa-pta -Wno-maybe-uninitialized -c {src}
// DRIVER_EXISTS: gcc_only_flags.o
// DRIVER_NOT_STDERR: unknown
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
