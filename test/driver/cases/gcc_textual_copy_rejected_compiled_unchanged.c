// The textual front end reads the branches Clang's preprocessor takes
// (`__clang__` is defined there); here GCC compiles the other branch, so the
// instrumented copy does not compile.  The original is then compiled
// unchanged, with one warning naming Clang's error and GCC's on the copy,
// and nothing of GCC's diagnostics on the copy is shown.
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_STDERR: ^ompp-instrument: warning: \S*gcc_textual_copy_rejected_compiled_unchanged\.c is compiled unchanged, without measurement: Clang cannot parse it \(\S+:\d+:\d+: error: function definition is not allowed here\), and the compiler rejects ompp's textual instrumentation of it \(.*error: .*\)$
// DRIVER_STDERR_LINES: 1
// DRIVER_THEN: ./prog
// DRIVER_THEN_STDOUT: ^2$
#include <stdio.h>
int main(void) {
  int twice(int x) { return 2 * x; }
  int n = 0;
#ifdef __clang__
#pragma omp parallel
  {
#else
  {
#endif
    n = twice(1);
  }
  printf("%d\n", n);
  return 0;
}
