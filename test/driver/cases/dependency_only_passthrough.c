// -M (dependencies only) is passed through and names the original source.
// DRIVER_WRITE: dep_header.h: #define DEP 1
// DRIVER_ARGS: -- {cc} -fopenmp -M {src}
// DRIVER_STDOUT: ^dependency_only_passthrough\.o:[\s\\]*\S*src/dependency_only_passthrough\.c
// DRIVER_STDOUT: dep_header\.h
#include "dep_header.h"
int f(void) { return DEP; }
