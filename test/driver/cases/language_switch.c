// -x c++ on a .c file: parsed and compiled as C++.
// DRIVER_ARGS: -- {cxx} -fopenmp -x c++ -c {src} -o cxx.o
// DRIVER_EXISTS: cxx.o
template <typename T> T twice(T x) {
  T r{};
#pragma omp parallel
  {
#pragma omp critical
    r = 2 * x;
  }
  return r;
}
int use() { return twice(21); }
