// -c -o: exactly the named object, nothing else in the work directory.
// DRIVER_ARGS: -- {cc} -fopenmp -O2 -c {src} -o named.o
// DRIVER_EXISTS: named.o
// DRIVER_ABSENT: compile_output_name.o
// DRIVER_THEN: test "$(ls)" = named.o
int f(int x) {
  int r = 0;
#pragma omp parallel
  {
#pragma omp atomic
    r += x;
  }
  return r;
}
