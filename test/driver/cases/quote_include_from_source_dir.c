// "..." includes resolve against the ORIGINAL source's directory.
// DRIVER_WRITE: beside_source.h: #define BESIDE 3
// DRIVER_ARGS: -- {cc} -fopenmp -c {src}
// DRIVER_EXISTS: quote_include_from_source_dir.o
#include "beside_source.h"
int f(void) {
  int n = BESIDE;
#pragma omp parallel
  n++;
  return n;
}
