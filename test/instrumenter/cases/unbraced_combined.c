/* Split combined constructs and other constructs whose statement ends in
 * unbraced directives at some depth: parallel for -> if -> task -> atomic,
 * parallel for -> ordered, a section that is an unbraced task, while ->
 * critical, a critical from _Pragma, taskgroup -> for -> if/else -> tasks,
 * task -> parallel for, master -> for -> for -> atomic.  Every construct's
 * end code must follow its whole statement. */
#include <stdio.h>
#define CRIT _Pragma("omp critical")
int main(void) {
  int a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, n = 8;
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (i % 2)
      #pragma omp task shared(a)
      #pragma omp atomic
      a += i;
  #pragma omp parallel for ordered schedule(static,1)
  for (int i = 0; i < n; i++)
    #pragma omp ordered
    b = b * 2 + i;
  #pragma omp parallel sections
  {
    #pragma omp task shared(c)
    #pragma omp atomic
    c += 1;
    #pragma omp section
    for (int i = 0; i < 3; i++)
      #pragma omp task shared(c)
      #pragma omp atomic
      c += 10;
  }
  #pragma omp parallel firstprivate(n)
  while (n-- > 4)
    #pragma omp critical
    d++;
  #pragma omp parallel
  for (int i = 0; i < 2; i++)
    CRIT
    e++;
  #pragma omp parallel
  #pragma omp single
  #pragma omp taskgroup
  for (int i = 0; i < 4; i++)
    if (i & 1)
      #pragma omp task shared(f)
      #pragma omp atomic
      f += 1;
    else
      #pragma omp task shared(f)
      #pragma omp atomic
      f += 100;
  #pragma omp parallel
  #pragma omp single
  #pragma omp task shared(g)
  #pragma omp parallel for reduction(+:g)
  for (int i = 0; i < 10; i++)
    g += i;
  #pragma omp parallel
  #pragma omp master
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      #pragma omp atomic
      h += i * j;
  printf("%d %d %d %d %d %d %d %d\n", a, b, c, d % 4, e > 0, f, g, h);
  return 0;
}
// STDOUT: 16 247 31 0 1 202 45 9
// T2.COUNT: Task_end task@14 = 4
// T2.COUNT: Implicit_barrier_exit parallelfor@11 = 0
// T2.COUNT: Parallel_join parallelfor@11 = 1
// T2.COUNT: Ordered_exit ordered@19 = 8
// T2.COUNT: Task_end task@23 = 1
// T2.COUNT: Task_end task@28 = 3
// T2.COUNT: Section_end section = 2
// T2.COUNT: Critical_exit critical@34 = 8
// T2.COUNT: Critical_exit critical@38 = 4
// T2.COUNT: Task_end task@45 = 2
// T2.COUNT: Task_end task@49 = 2
// T2.COUNT: Taskgroup_exit taskgroup@42 = 1
// T2.COUNT: Parallel_join parallelfor@55 = 1
// T2.COUNT: Atomic_count atomic@62 = 9
// TEXTUAL-DIFFERS: a block starting with a _Pragma macro cannot be delimited from tokens
