// -S: assembly named after the original source.
// DRIVER_ARGS: -- {cc} -fopenmp -S {src}
// DRIVER_EXISTS: assemble_default_name.s
// DRIVER_ABSENT: assemble_default_name.o
void g(double *a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] *= 2.0;
}
