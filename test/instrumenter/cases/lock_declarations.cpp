// The lock wrappers are declared where each omp_* function is first named
// (here in a function before any construct), with its type: a function
// pointer to omp_set_lock still type-checks, and the C++ exception
// specifications (noexcept in libgomp's <omp.h>) match.
#include <omp.h>
#include <cstdio>
#include <cstdlib>

static omp_lock_t lock;

static void init() { omp_init_lock(&lock); }

int main() {
  init();
  void (*set)(omp_lock_t *) = omp_set_lock;
  int count = 0;
  #pragma omp parallel shared(count)
  {
    set(&lock);
    count++;
    omp_unset_lock(&lock);
  }
  if (count != omp_get_max_threads())
    std::abort();
  omp_destroy_lock(&lock);
  std::printf("ok\n");
  return 0;
}
// STDOUT: ok
// T1: Lock_init_site lock@11; Init_lock -; Parallel_fork parallel; Parallel_begin parallel; Set_lock -; Unset_lock -;
// T1: Parallel_end parallel; Parallel_join parallel;
// T1: Destroy_lock -
