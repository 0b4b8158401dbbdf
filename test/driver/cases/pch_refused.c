// Building a precompiled header is refused with a clear error; nothing is made.
// DRIVER_WRITE: pch_header.h: #define PCH 1
// DRIVER_ARGS: -- {cc} -fopenmp -x c-header {dir}/pch_header.h -o pch_header.h.gch
// DRIVER_EXIT: 1
// DRIVER_STDERR: ^ompp-instrument: error: .*pch_header\.h: building a precompiled header is not supported
// DRIVER_STDERR_LINES: 1
// DRIVER_ABSENT: pch_header.h.gch
int unused;
