// A missing input: one line naming it, non-zero status, no output.
// DRIVER_ARGS: -- {cc} -fopenmp -c {dir}/no_such_file.c -o x.o
// DRIVER_EXIT: 1
// DRIVER_STDERR: ^ompp-instrument: error: .*no_such_file\.c: no such file$
// DRIVER_STDERR_LINES: 1
// DRIVER_ABSENT: x.o
int unused;
