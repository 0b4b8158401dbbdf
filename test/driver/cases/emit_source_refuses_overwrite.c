// --emit-source -o never overwrites the source it reads.
// DRIVER_ARGS: --emit-source -o {src} -- {cc} -fopenmp -c {src}
// DRIVER_EXIT: 1
// DRIVER_STDERR: refusing to overwrite the source file
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
