#include <stdio.h>
#include <omp.h>
#define LOCK_CALL(f, l) f(l)
int main(void) {
  omp_lock_t l;
  omp_nest_lock_t n;
  int x = 0;
  void (*setter)(omp_lock_t *) = omp_set_lock; /* a reference, not a call: renamed too */
  omp_init_lock(&l);
  omp_init_nest_lock(&n);
  #pragma omp parallel shared(x)
  {
    setter(&l);
    x++;
    LOCK_CALL(omp_unset_lock, &l);
    if (omp_test_lock(&l))
      omp_unset_lock(&l);
    omp_set_nest_lock(&n);
    omp_unset_nest_lock(&n);
  }
  omp_destroy_lock(&l);
  omp_destroy_nest_lock(&n);
  const char *name = "omp_set_lock"; /* strings and comments stay */
  printf("%d %s\n", x > 0, name);
  return 0;
}
// STDOUT: 1 omp_set_lock
// T1: Lock_init_site lock@9; Init_lock -; Lock_init_site lock@10; Init_nest_lock -; Parallel_fork parallel; Parallel_begin parallel;
// T1: Set_lock -; Unset_lock -; Test_lock -; Unset_lock -; Set_nest_lock -; Unset_nest_lock -;
// T1: Parallel_end parallel; Parallel_join parallel;
// T1: Destroy_lock -; Destroy_nest_lock -
