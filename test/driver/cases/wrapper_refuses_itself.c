// A wrapper told to wrap itself (OMPP_CC=ompp-cc) stops with one line instead
// of starting itself forever.
// DRIVER_PROGRAM: ompp-cc
// DRIVER_ENV: OMPP_CC=ompp-cc
// DRIVER_ENV: PATH={bindir}:/usr/bin:/bin
// DRIVER_ARGS: -fopenmp -c {src}
// DRIVER_EXIT: 1
// DRIVER_STDERR: ^ompp-instrument: error: the compiler of ompp-cc is ompp-cc itself
// DRIVER_STDERR_LINES: 1
// DRIVER_ABSENT: wrapper_refuses_itself.o
int f(void) { return 0; }
