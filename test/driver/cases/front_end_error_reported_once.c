// A real syntax error is reported once, by the compiler's own diagnostics
// (its compile of the original file): no ompp warning or error line on top,
// no second copy of Clang's parse errors, and no output file.
// DRIVER_ARGS: -- {cc} -fopenmp -c {src} -o bad.o
// DRIVER_EXIT: 1
// DRIVER_STDERR: front_end_error_reported_once\.c:13:\d+: error: expected expression
// DRIVER_NOT_STDERR: error: expected expression[\s\S]*error: expected expression
// DRIVER_NOT_STDERR: ompp-instrument|Error while processing|[2-9] errors? generated
// DRIVER_ABSENT: bad.o
int broken(int n) {
#pragma omp parallel
  {
    n = n +;
  }
  return n;
}
