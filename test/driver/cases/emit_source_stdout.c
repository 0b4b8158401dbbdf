// --emit-source prints the instrumented source and compiles nothing.
// DRIVER_ARGS: --emit-source -- {cc} -fopenmp -c {src}
// DRIVER_STDOUT: ^#define OMPP_INSTRUMENTED 1
// DRIVER_STDOUT: POMP2_Parallel_fork\s*\(
// DRIVER_ABSENT: emit_source_stdout.o
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
