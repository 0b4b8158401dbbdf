// A command without inputs (--version) goes to the compiler unchanged.
// DRIVER_ARGS: -- {cc} --version
// DRIVER_STDOUT: (clang version 16|gcc)
int unused;
