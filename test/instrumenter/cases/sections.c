#include <stdio.h>
int main(void) {
  int a = 0, b = 0;
  #pragma omp parallel sections
  {
    a = 1;
    #pragma omp section
    b = 2;
  }
  #pragma omp parallel
  {
    #pragma omp sections
    {
      #pragma omp section
      {
        #pragma omp atomic
        a += 1;
      }
      #pragma omp section
      b += 1;
    }
  }
  printf("%d %d\n", a, b);
  return 0;
}
// STDOUT: 2 3
// T1: Parallel_fork parallelsections@4; Parallel_begin parallelsections; Sections_enter parallelsections;
// T1: Section_begin section@6; Section_end section; Section_begin section@7; Section_end section;
// T1: Sections_exit parallelsections;
// T1: Parallel_end parallelsections; Parallel_join parallelsections;
// T1: Parallel_fork parallel@10; Parallel_begin parallel; Sections_enter sections@12;
// T1: Section_begin section@14; Atomic_count atomic@16; Section_end section; Section_begin section@19; Section_end section;
// T1: Sections_exit sections;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Section_begin section = 4
// T2.COUNT: Sections_enter sections = 2
// JOIN-BARRIER: sections@12
