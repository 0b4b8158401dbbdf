// Using a precompiled header (-include-pch) is refused with a clear error.
// DRIVER_COMPILERS: clang
// DRIVER_ARGS: -- {cc} -fopenmp -include-pch some.pch -c {src}
// DRIVER_EXIT: 1
// DRIVER_STDERR: ^ompp-instrument: error: precompiled headers are not supported
// DRIVER_ABSENT: pch_use_refused.o
int f(void) { return 0; }
