#include <cstdio>
int main() {
  int n = 0, k = 1;
  #pragma omp parallel
  do {
    #pragma omp atomic
    n++;
  } while (0);
  #pragma omp parallel
  switch (k) {
  case 1:
    #pragma omp atomic
    n++;
    break;
  default:
    break;
  }
  #pragma omp parallel
  try {
    n += 0;
    throw 1;
  } catch (int) {
    #pragma omp atomic
    n++;
  }
  #pragma omp parallel
  if (k) n += 0; else n -= 1;
  std::printf("%d\n", n > 0);
  return 0;
}
// STDOUT: 1
// T1: Parallel_fork parallel@4; Parallel_begin parallel; Atomic_count atomic@6; Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallel@9; Parallel_begin parallel; Atomic_count atomic@12; Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallel@18; Parallel_begin parallel; Atomic_count atomic@23; Parallel_end parallel; Parallel_join parallel;
// T1: Parallel_fork parallel@26; Parallel_begin parallel; Parallel_end parallel; Parallel_join parallel
