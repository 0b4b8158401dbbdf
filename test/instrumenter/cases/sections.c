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
// T1: Section_begin parallelsections; Section_end parallelsections; Section_begin parallelsections; Section_end parallelsections;
// T1: Sections_exit parallelsections;
// T1: Parallel_end parallelsections; Parallel_join parallelsections;
// T1: Parallel_fork parallel@10; Parallel_begin parallel; Sections_enter sections@12;
// T1: Section_begin sections; Atomic_enter atomic@16; Atomic_exit atomic; Section_end sections; Section_begin sections; Section_end sections;
// T1: Sections_exit sections;
// T1: Parallel_end parallel; Parallel_join parallel
// T2.COUNT: Section_begin parallelsections = 2
// T2.COUNT: Section_begin sections = 2
// T2.COUNT: Sections_enter sections = 2
// JOIN-BARRIER: sections@12
