#include <cstdio>
template <typename T> T sum(const T *a, int n) {
  T s = T();
  #pragma omp parallel for reduction(+:s)
  for (int i = 0; i < n; ++i) s += a[i];
  return s;
}
int main() {
  int ai[4] = {1, 2, 3, 4};
  double ad[4] = {1, 2, 3, 4};
  int count = 0;
  auto body = [&count]() {
    #pragma omp parallel
    {
      #pragma omp atomic
      count++;
    }
  };
  body();
  body();
  std::printf("%d %g %d\n", sum(ai, 4), sum(ad, 4), count > 0);
  return 0;
}
// STDOUT: 10 10 1
// T1.COUNT: Parallel_fork parallelfor@4 = 2
// T1.COUNT: Parallel_fork parallel@13 = 2
// T1.COUNT: Atomic_count atomic@15 = 2
