/* ISO C90 with -pedantic and warnings as errors builds through ompp as it
   builds plainly: ompp's headers (long long, inline functions) are system
   headers to the compiler. */
/* DRIVER_ARGS: {runtime} -- {cc} -std=c89 -pedantic -fopenmp -Wall -Wextra -Werror {src} -o prog */
/* DRIVER_THEN: OMP_NUM_THREADS=2 OMPP_QUIET=1 ./prog */
static long fib(int n, int depth) {
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

int main(void) {
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(20, 0);
  return r == 6765 ? 0 : 1;
}
