// @file arguments are expanded (here: the mode, the output and a define).
// DRIVER_WRITE: flags.rsp: -fopenmp -DFROM_RSP=1\n-c -o from_rsp.o
// DRIVER_ARGS: -- {cc} @{dir}/flags.rsp {src}
// DRIVER_EXISTS: from_rsp.o
// DRIVER_ABSENT: response_file.o
#if !FROM_RSP
#error "the response file was not read"
#endif
int f(void) { return FROM_RSP; }
