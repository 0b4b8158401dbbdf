// -MMD without -MF: <object stem>.d next to the object, naming the original.
// DRIVER_ARGS: -- {cc} -fopenmp -MMD -c {src}
// DRIVER_EXISTS: dependency_file_default_name.o
// DRIVER_EXISTS: dependency_file_default_name.d
// DRIVER_THEN: grep -q 'src/dependency_file_default_name\.c' dependency_file_default_name.d && ! grep -q ompp-instrument- dependency_file_default_name.d
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
