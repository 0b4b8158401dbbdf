#include <stdio.h>
#include <omp.h>
int main(void) {
  omp_lock_t l;
  omp_nest_lock_t n;
  omp_init_lock_with_hint(&l, omp_sync_hint_contended);
  omp_init_nest_lock_with_hint(&n, omp_sync_hint_none);
  omp_set_lock(&l);
  omp_unset_lock(&l);
  omp_destroy_lock(&l);
  omp_destroy_nest_lock(&n);
  printf("ok\n");
  return 0;
}
// libgomp 12 has no omp_init_lock_with_hint, so the uninstrumented program only builds with libomp.
// COMPILERS: clang
// STDOUT: ok
// T1: Lock_init_site lock@6; Init_lock_with_hint -; Lock_init_site lock@7; Init_nest_lock_with_hint -; Set_lock -; Unset_lock -; Destroy_lock -; Destroy_nest_lock -
