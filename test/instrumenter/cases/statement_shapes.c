// Structured blocks of every statement shape, unbraced where the grammar
// allows, for both front ends (front_ends_agree.py checks that the textual
// one delimits them exactly as Clang's AST does): if/else, do-while, while,
// switch with case labels, a label, collapse(2) through a '{ }', sections
// with an implicit first section, and stacked directives.
#include <stdio.h>
int main(void) {
  int a = 0, b = 0, c = 0, d = 0, e = 0, m[4][4] = {{0}};
  #pragma omp parallel num_threads(2)
  if (b == 0)
    #pragma omp single
    a = 1;
  else
    #pragma omp critical
    a = 2;
  #pragma omp parallel num_threads(2)
  {
    int k = 0;
    do
      #pragma omp atomic
      b++;
    while (++k < 3);
    switch (k) {
    case 3:
      #pragma omp atomic
      c += 1;
      break;
    default:
      c = -100;
    }
  done:
    #pragma omp master
    d = k;
  }
  #pragma omp parallel for collapse(2) num_threads(2)
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++)
      m[i][j] = i + j;
  }
  #pragma omp parallel sections num_threads(2)
  {
    e += 0;
    #pragma omp section
    #pragma omp atomic
    e += 5;
  }
  #pragma omp parallel num_threads(2)
  #pragma omp single
  #pragma omp task
  while (e < 10)
    e++;
  printf("%d %d %d %d %d %d\n", a, b, c, d, e, m[3][3]);
  return 0;
}
// STDOUT: 1 6 2 3 10 6
// T2.COUNT: Atomic_count atomic@20 = 6
// T2.COUNT: Atomic_count atomic@25 = 2
// T2.COUNT: Master_end master@32 = 1
// T2.COUNT: Task_end task@49 = 1
