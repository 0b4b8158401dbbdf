// A C++ compiler driver (clang++, g++, ompp-c++) compiles a .c file as C++,
// as both compilers do without -x: ompp's parse must read it as C++ too
// (else -std=c++17 is rejected for C and the file is compiled unchanged).
// Found by the LLVM OpenMP corpus (tasking/omp51_task_dep_inoutset.c built
// with %libomp-cxx-compile).
// DRIVER_ARGS: -- {cxx} -fopenmp -std=c++17 -c {src} -o cxx.o
// DRIVER_EXISTS: cxx.o
// DRIVER_NOT_STDERR: compiled unchanged|cannot parse
// DRIVER_THEN: nm cxx.o | grep -q POMP2_Parallel_fork
#include <vector>
struct Counter {
  std::vector<int> hits = std::vector<int>(4);
  void count() {
#pragma omp parallel for
    for (int i = 0; i < 4; ++i)
      hits[i] = i;
  }
};
int use() {
  Counter c;
  c.count();
  return c.hits[3];
}
