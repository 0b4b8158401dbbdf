#include <stdio.h>
static int calls[4];
static int counted(int k, int v) {
  #pragma omp atomic
  calls[k]++;
  return v;
}
int main(void) {
  int s = 0;
  #pragma omp parallel for num_threads(counted(0, 2)) schedule(static, 4) if(counted(1, 1) - -1) reduction(+:s)
  for (int i = 0; i < 8; ++i) s += i;
  #pragma omp parallel num_threads(counted(2, 2)) if(counted(2, 1))
  {
    #pragma omp single
    {
      #pragma omp task if(counted(3, 1))
      { }
    }
  }
  printf("%d %d %d %d %d %d\n", s, calls[0], calls[1], calls[2], calls[3], __LINE__);
  return 0;
}
// EXPECT-COMPILER-WARNING: clause_evaluation.c:26:7: warning: unused variable .unused.
// STDOUT: 28 1 1 2 1 20
int check_line_mapping(void) {
  int unused;
  return 0;
}
