// A C++ compiler driver (clang++, g++, ompp-c++) compiles a .c file as C++,
// as both compilers do without -x: ompp's parse must read it as C++ too
// (else -std=c++17 is rejected for C and the file is compiled unchanged).
// Found by the LLVM OpenMP corpus (tasking/omp51_task_dep_inoutset.c built
// with %libomp-cxx-compile).
// DRIVER_ARGS: -- {cxx} -fopenmp -std=c++17 -c {src} -o cxx.o
// DRIVER_EXISTS: cxx.o
// DRIVER_NOT_STDERR: compiled unchanged|cannot parse
// DRIVER_THEN: nm cxx.o | grep -q POMP2_Parallel_fork
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
