// An underlying compiler that does not exist: one line, status 127.
// DRIVER_ARGS: -- no-such-compiler-ompp -fopenmp -c {src}
// DRIVER_EXIT: 127
// DRIVER_STDERR: compiler 'no-such-compiler-ompp' not found
// DRIVER_STDERR_LINES: 1
int f(void) { return 0; }
