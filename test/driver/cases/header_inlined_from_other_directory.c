// A header with OpenMP code in another directory is inlined into the unit,
// and its own quoted include still finds its neighbour there (-iquote). The
// profile names the header's region by the header's file and line.
// DRIVER_WRITE: lib/kernel.h: #include "kernel_size.h"\nstatic int kernel(void) {\n  int n = 0;\n  #pragma omp parallel for reduction(+ : n)\n  for (int i = 0; i < KERNEL_SIZE; i++)\n    n++;\n  return n;\n}
// DRIVER_WRITE: lib/kernel_size.h: #define KERNEL_SIZE 64
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_NOT_STDERR: warning
// DRIVER_THEN: OMPP_QUIET=1 OMPP_APPNAME=prog OMP_NUM_THREADS=2 ./prog && grep -c 'lib/kernel.h' prog.2-0.ompp.json
// DRIVER_THEN_STDOUT: ^64\n[1-9]
#include <stdio.h>
#include "lib/kernel.h"
int main(void) {
  printf("%d\n", kernel());
  return 0;
}
