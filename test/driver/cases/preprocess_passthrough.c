// -E is passed through: the compiler's preprocessed output, not instrumented.
// DRIVER_ARGS: -- {cc} -fopenmp -E {src}
// DRIVER_STDOUT: ^#pragma omp parallel
// DRIVER_NOT_STDOUT: POMP2_
// DRIVER_ABSENT: preprocess_passthrough.o
int f(int x) {
#pragma omp parallel
  x++;
  return x;
}
