// GCC 12 says _OPENMP 201511 (4.5) but accepts OpenMP 5.0 syntax such as
// `reduction(inscan, ...)` with `scan`: Clang parses GCC's files with the
// newest OpenMP it knows (not 4.5, which rejects this), so the file is
// instrumented, not compiled unchanged.
// DRIVER_ARGS: --emit-source -- {cc} -fopenmp -c {src}
// DRIVER_STDOUT: POMP2_Parallel_fork
// DRIVER_NOT_STDERR: warning|error
int prefix_sum(const int *a, int *b, int n) {
  int s = 0;
#pragma omp parallel for reduction(inscan, + : s)
  for (int i = 0; i < n; i++) {
    s += a[i];
#pragma omp scan inclusive(s)
    b[i] = s;
  }
  return s;
}
