#include <stdio.h>
static int calls;
static int counted(int v) { return ++calls, v; }
int main(void) {
  int s = 0;
  #pragma omp parallel for num_threads(counted(2)) schedule(static, counted(4)) if(counted(1) - -1) reduction(+:s)
  for (int i = 0; i < 8; ++i) s += i;
  #pragma omp parallel num_threads(counted(2)) if(counted(1))
  {
    #pragma omp task if(counted(1))
    { }
  }
  printf("%d %d %d\n", s, calls >= 5, __LINE__);
  return 0;
}
// EXPECT-COMPILER-WARNING: clause_evaluation.c:19:7: warning: unused variable .unused.
// STDOUT: 28 1 13
int check_line_mapping(void) {
  int unused;
  return 0;
}
