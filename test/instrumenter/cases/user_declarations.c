/* Declarations of the user's own that ompp's injected code must not clash
 * with (libgomp's C++ tests start this way): the rewritten file may include no
 * system header, since libomp's <omp.h> brings <stdlib.h>, whose abort() is
 * noexcept in C++, and <omp.h> the runtime's own omp_set_dynamic.  The
 * program includes no <omp.h> at all. */
#ifdef __cplusplus
extern "C" {
#endif
void abort(void);
void omp_set_dynamic(int);
int omp_get_thread_num(void);
#ifdef __cplusplus
}
#endif
#include <stdio.h>

int main(void) {
  int sum = 0;
  omp_set_dynamic(0);
  #pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 100; i++)
    sum += i;
  if (sum != 4950)
    abort();
  printf("%d\n", sum);
  return 0;
}
// STDOUT: 4950
// T1.COUNT: Parallel_fork parallelfor = 1
