// --disable with a family the rewriter does not know: one line, non-zero.
// DRIVER_ARGS: --disable=atomic,no-such-family -- {cc} -fopenmp -c {src}
// DRIVER_EXIT: 1
// DRIVER_STDERR: ^ompp-instrument: error: --disable: unknown construct family 'no-such-family'
// DRIVER_STDERR_LINES: 1
// DRIVER_ABSENT: disable_unknown_family.o
int f(void) { return 0; }
