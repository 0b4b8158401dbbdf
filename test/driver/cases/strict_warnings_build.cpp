// A project that builds with strict warnings as errors still builds through
// ompp: the rewritten code and ompp's headers (their inline fast path for
// tasks below an if/final cut-off, the POMP2_UNTIMED_TASK macro) trip none of
// the user's warnings, because the headers come in as system headers.
// DRIVER_ARGS: {runtime} -- {cxx} -std=c++17 -fopenmp -Wall -Wextra -Wpedantic -Wold-style-cast -Wconversion -Werror {src} -o prog
// DRIVER_THEN: OMP_NUM_THREADS=2 OMPP_QUIET=1 ./prog
#include <vector>

// Sums a vector in tasks of `grain` elements, each run at once when small
// (if) or below a depth (final): the untimed fast path and its macros.
static long sum(const std::vector<long> &values, std::size_t begin, std::size_t end, int depth) {
  if (end - begin <= 4) {
    long total = 0;
    for (std::size_t i = begin; i < end; ++i)
      total += values[i];
    return total;
  }
  const std::size_t middle = begin + (end - begin) / 2;
  long left = 0, right = 0;
#pragma omp task shared(left) if (end - begin > 64)
  left = sum(values, begin, middle, depth + 1);
#pragma omp task shared(right) final(depth > 3)
  right = sum(values, middle, end, depth + 1);
#pragma omp taskwait
  return left + right;
}

int main() {
  const std::vector<long> values(1000, 3);
  long total = 0;
#pragma omp parallel
#pragma omp single
  total = sum(values, 0, values.size(), 0);
  return total == 3000 ? 0 : 1;
}
