// -### (print the compiler's commands, run nothing) is passed through.
// DRIVER_COMPILERS: clang
// DRIVER_ARGS: -- {cc} -fopenmp -### -c {src}
// DRIVER_STDERR: "-cc1"
// DRIVER_NOT_STDERR: ompp-instrument-
// DRIVER_ABSENT: print_commands_passthrough.o
int f(void) { return 0; }
