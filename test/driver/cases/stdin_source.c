// `-x c -` (configure scripts): the source on standard input is
// instrumented and built, with the compiler's default output name (-.o).
// DRIVER_ARGS: --version
// DRIVER_THEN: {tool} {runtime} -- {cc} -fopenmp -x c - -o fromstdin < {src} && ./fromstdin
// DRIVER_THEN: {tool} -- {cc} -fopenmp -x c -c - < {src} && nm ./-.o | grep -q POMP2_Parallel_fork
// DRIVER_THEN_STDOUT: ^threads ran$
#include <stdio.h>
int main(void) {
  int ran = 0;
#pragma omp parallel reduction(+ : ran)
  ran = 1;
  puts(ran > 0 ? "threads ran" : "no thread ran");
  return 0;
}
