// An --opari2-compatible link does OPARI2's init step itself: the program
// links against OPARI2's libpomp.a and knows its regions (parallel, for).
// DRIVER_ARGS: --opari2-compatible --runtime-library=/usr/lib/libpomp.a -- {cc} -fopenmp {src} -o prog
// DRIVER_THEN: OMP_NUM_THREADS=1 ./prog 2>&1
// DRIVER_THEN_STDOUT: ^regions 2$
// DRIVER_THEN_STDOUT: 0: fork\s+parallel
#include <stddef.h>
#include <stdio.h>
size_t POMP2_Get_num_regions(void);
int main(void) {
  int sum = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : sum)
    for (int i = 0; i < 4; ++i)
      sum += i;
  }
  printf("regions %zu\n", POMP2_Get_num_regions());
  return sum == 6 ? 0 : 1;
}
