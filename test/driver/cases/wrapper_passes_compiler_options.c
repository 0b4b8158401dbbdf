// ompp-cc answers the compiler's own options (here --version) like the
// compiler it wraps, chosen by --compiler.
// DRIVER_PROGRAM: ompp-cc
// DRIVER_ARGS: --compiler={cc} --version
// DRIVER_STDOUT: (clang version 16|gcc)
int unused;
