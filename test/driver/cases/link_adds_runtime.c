// A link step without -fopenmp gets it (and the POMP2 library) added.
// DRIVER_ARGS: --verbose {runtime} -- {cc} {src} -o prog
// DRIVER_STDERR: running: \S+ .*-o prog -fopenmp
// DRIVER_THEN: ./prog
// DRIVER_THEN_STDOUT: ^linked$
#include <stdio.h>
int main(void) {
  puts("linked");
  return 0;
}
