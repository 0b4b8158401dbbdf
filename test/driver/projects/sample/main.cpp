// Sample project for the build-system tests: C and C++ sources, a local
// header, OpenMP in both languages.
#include "histogram.h"

#include <cstdio>
#include <numeric>
#include <vector>

int main() {
  std::vector<int> values(10000);
  std::iota(values.begin(), values.end(), 0);
  std::vector<long> counts(10, 0);
  histogram(values.data(), static_cast<int>(values.size()), counts.data(), 10);
  long total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int b = 0; b < 10; ++b)
    total += counts[b];
  std::printf("total %ld bin0 %ld\n", total, counts[0]);
  return total == 10000 && counts[0] == 1000 ? 0 : 1;
}
