// `--` with nothing after it: one line, non-zero status.
// DRIVER_ARGS: --verbose --
// DRIVER_EXIT: 1
// DRIVER_STDERR: ^ompp-instrument: error: no compiler command
// DRIVER_STDERR_LINES: 1
int unused;
