// -c with two sources: two objects, each named after its original.
// DRIVER_WRITE: second_input.c: int second(void) {\n  int n = 0;\n#pragma omp parallel\n  {\n#pragma omp atomic\n    n++;\n  }\n  return n;\n}
// DRIVER_ARGS: -- {cc} -fopenmp -c {src} {dir}/second_input.c
// DRIVER_EXISTS: multiple_inputs_compile.o
// DRIVER_EXISTS: second_input.o
int first(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n = 1;
  return n;
}
