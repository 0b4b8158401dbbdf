// --verbose names the real compiler (resolved path, family, _OPENMP) and
// the OpenMP runtime a link uses (libgomp with gcc, libomp with clang).
// DRIVER_ARGS: --verbose -- {cc} -fopenmp -c {src}
// DRIVER_STDERR: ^ompp-instrument: compiler: /\S+ \((gcc|clang) [^,]*, _OPENMP 20\d{4}\); OpenMP runtime: lib(gomp|omp) \(/\S+/lib(gomp|omp)\.so\)$
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
