// A project that builds with strict warnings as errors still builds through
// ompp: the rewritten code and ompp's headers (their inline fast path for
// tasks below an if/final cut-off, the POMP2_UNTIMED_TASK macro) trip none of
// the user's warnings, because the headers come in as system headers.
// DRIVER_ARGS: {runtime} -- {cxx} -std=c++17 -fopenmp -Wall -Wextra -Wpedantic -Wold-style-cast -Wconversion -Werror {src} -o prog
// DRIVER_THEN: OMP_NUM_THREADS=2 OMPP_QUIET=1 ./prog
long fib(int n, int depth) {
  long x, y;
  if (n < 2)
    return n;
#pragma omp task shared(x) if (depth < 4)
  x = fib(n - 1, depth + 1);
#pragma omp task shared(y) final(depth >= 4)
  y = fib(n - 2, depth + 1);
#pragma omp taskwait
  return x + y;
}

int main() {
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(20, 0);
  return r == 6765 ? 0 : 1;
}
