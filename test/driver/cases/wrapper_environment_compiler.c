// ompp-c++ takes its compiler from OMPP_CXX and its own options as --ompp-*.
// DRIVER_PROGRAM: ompp-c++
// DRIVER_ENV: OMPP_CXX={cxx}
// DRIVER_ARGS: --ompp-verbose -fopenmp -x c++ -c {src}
// DRIVER_STDERR: running: {cxx} 
// DRIVER_EXISTS: wrapper_environment_compiler.o
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
