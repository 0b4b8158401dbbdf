#include <stdio.h>
int main(void) {
  int found = 0;
  #pragma omp parallel
  {
    #pragma omp for
    for (int i = 0; i < 100; ++i) {
      if (i == 50) {
        #pragma omp atomic write
        found = 1;
        #pragma omp cancel for
      }
      #pragma omp cancellation point for
    }
  }
  printf("%d\n", found);
  return 0;
}
// STDOUT: 1
// T2.COUNT: Cancel_enter cancel@11 = 1
