/* How a statement can end: do-while, a label (unused: the compilers warn),
 * a switch case, else-if chains, comments before the ';' and after it, a
 * macro invocation, a macro that brings its own ';', a line continuation.
 * Each construct's end code follows its whole statement. */
#include <stdio.h>
#define ADD(v, k) v += (k)
#define STEP(v) v += 1;
int main(void) {
  int a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, k = 2;
  #pragma omp parallel
  do
    #pragma omp atomic
    a++;
  while (0);
  #pragma omp parallel
  #pragma omp single
  unused_label:
    #pragma omp task shared(b)
    if (++b < 3) b += 12; else b = -1;
  #pragma omp parallel
  #pragma omp single
  switch (k)
    case 2:
      #pragma omp task shared(c)
      c = 5 /* trailing comment */ ; // and one more
  #pragma omp parallel
  #pragma omp single
  if (k == 0)
    d = -1;
  else if (k == 1)
    d = -2;
  else
    #pragma omp task shared(d)
    ADD(d, 7);
  #pragma omp parallel
  #pragma omp master
  e = e \
      + 3;
  #pragma omp parallel
  #pragma omp single
  if (k)
    STEP(f)
  printf("%d %d %d %d %d %d\n", a > 0, b, c, d, e, f);
  return 0;
}
// STDOUT: 1 13 5 7 3 1
// T1.COUNT: Single_end single@40 = 1
// T2.COUNT: Parallel_end parallel@39 = 2
// T1.COUNT: Task_end task@18 = 1
// T1.COUNT: Single_end single@16 = 1
// T1.COUNT: Parallel_end parallel@15 = 1
// T1.COUNT: Task_create_end task@24 = 1
// T2.COUNT: Atomic_count atomic@12 = 2
// T2.COUNT: Task_end task@24 = 1
// T2.COUNT: Single_exit single@27 = 2
// T2.COUNT: Task_create_end task@33 = 1
// T2.COUNT: Master_end master@36 = 1
// T2.COUNT: Parallel_join parallel@35 = 1
// TEXTUAL-DIFFERS: a block starting with a macro that ends a statement cannot be delimited from tokens
