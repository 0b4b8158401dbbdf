// -MD -MF: the dependency file names the original source (never the deleted
// temporary copy), so make/ninja do not rebuild forever or fail.
// DRIVER_WRITE: dep_local.h: #define LOCAL 2
// DRIVER_ARGS: -- {cc} -fopenmp -MD -MF deps.d -c {src} -o dep.o
// DRIVER_EXISTS: dep.o
// DRIVER_THEN: grep -q '^dep\.o:' deps.d && grep -q 'src/dependency_file_names_original\.c' deps.d && grep -q 'dep_local\.h' deps.d && ! grep -q ompp-instrument- deps.d
#include "dep_local.h"
int f(void) {
  int n = LOCAL;
#pragma omp parallel
  n++;
  return n;
}
