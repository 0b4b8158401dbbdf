// A GNU nested function: GCC accepts it, Clang 16 cannot parse it.  With GCC
// the file is compiled unchanged, with one warning naming the file and
// Clang's first error, and the program is built and runs as without ompp.
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_STDERR: ^ompp-instrument: warning: \S*gcc_nested_function_compiled_unchanged\.c is compiled unchanged.*Clang cannot parse it \(\S*gcc_nested_function_compiled_unchanged\.c:\d+:\d+: error: function definition is not allowed here\)$
// DRIVER_STDERR_LINES: 1
// DRIVER_THEN: ./prog
// DRIVER_THEN_STDOUT: ^total 55$
#include <stdio.h>
int main(void) {
  int total = 0;
  int next(int x) { return x + 1; }
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < 10; i++)
    total += next(i);
  printf("total %d\n", total);
  return 0;
}
