// An unknown ompp-instrument option: one line, non-zero status, nothing run.
// DRIVER_ARGS: --no-such-option -- {cc} -fopenmp -c {src}
// DRIVER_EXIT: 1
// DRIVER_STDERR: ^ompp-instrument: error: .*--no-such-option
// DRIVER_STDERR_LINES: 1
// DRIVER_ABSENT: exitcode_unknown_option.o
int unused;
