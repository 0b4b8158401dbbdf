// A syntax error: Clang's diagnostic with file:line:col, the compiler's
// failure status (1), and no output file.
// DRIVER_ARGS: -- {cc} -fopenmp -c {src} -o bad.o
// DRIVER_EXIT: 1
// DRIVER_STDERR: exitcode_syntax_error\.c:11:\d+: error
// DRIVER_ABSENT: bad.o
// DRIVER_THEN: test -z "$(ls)"
int broken(int n) {
#pragma omp parallel
  {
    n = n +;
  }
  return n;
}
