// --disable=atomic leaves atomics alone while the rest is instrumented.
// DRIVER_ARGS: --disable=atomic --emit-source -- {cc} -fopenmp -c {src}
// DRIVER_STDOUT: POMP2_Parallel_fork\s*\(
// DRIVER_NOT_STDOUT: POMP2_Atomic_(enter|count)\s*\(
int f(int n) {
#pragma omp parallel
  {
#pragma omp atomic
    n++;
  }
  return n;
}
