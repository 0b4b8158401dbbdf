// A program with no instrumented construct still loads libompp (GCC links
// with --as-needed, which would drop it), so it still writes a profile.
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_THEN: readelf -d prog | grep -q 'NEEDED.*libompp'
// DRIVER_THEN: ./prog
// DRIVER_THEN_STDOUT: ^no constructs$
#include <stdio.h>
int main(void) {
  puts("no constructs");
  return 0;
}
