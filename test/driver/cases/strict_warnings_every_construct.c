/* Every construct family ompp instruments, nested as real programs nest
   them, built with the strict warning set of real projects as errors: the
   plain build is clean, so the instrumented one must be clean too (ompp's
   output may add no warning: no shadowed task handles in nested constructs,
   no declaration after a statement, no conversion, no redundant
   declaration). The plain build runs second, as a check that the program
   itself is clean; both programs print the same, and the profile has a region
   of every construct family. */
/* DRIVER_ARGS: {runtime} -- {cc} -std=c11 -fopenmp {strict_cflags} -Werror -I{bindir}/../include {src} -o prog */
/* DRIVER_THEN: {cc} -std=c11 -fopenmp {strict_cflags} -Werror -I{bindir}/../include {src} -o plain */
/* DRIVER_THEN: OMP_NUM_THREADS=2 OMPP_QUIET=1 ./prog > instrumented.out && OMP_NUM_THREADS=2 ./plain > plain.out && cmp instrumented.out plain.out && cat plain.out */
/* DRIVER_THEN: python3 -c "import glob; from ompp_profile import read_profile; print(*sorted({r.kind for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()}))" */
/* DRIVER_THEN_STDOUT: ^sum 4950 sections 3 single 1 critical 100 ordered 4950 atomic 200 tasks 59 taskloop 4950 locks 40 nest 4 user 1$ */
/* DRIVER_THEN_STDOUT: ^ATOMIC BARRIER CANCELLATION_POINT CRITICAL FLUSH LOCK LOOP MASKED MASTER ORDERED PARALLEL PARALLEL_SECTIONS SECTION SINGLE TASK TASKGROUP TASKLOOP TASKWAIT TASKYIELD USER_REGION$ */
#include <omp.h>
#include <pomp2/pomp2_user.h>
#include <stdio.h>

static long fib(int n, int depth) {
  long x = 0, y = 0;
  if (n < 2)
    return n;
#pragma omp task shared(x) if (depth < 3) final(depth > 5)
  {
    x = fib(n - 1, depth + 1);
#pragma omp taskyield
  }
#pragma omp task shared(y) untied
  y = fib(n - 2, depth + 1);
#pragma omp taskwait
  return x + y;
}

static int sections_run(void) {
  int count = 0;
#pragma omp parallel sections reduction(+ : count)
  {
    count++;
#pragma omp section
    count++;
#pragma omp section
    {
      count++;
    }
  }
  return count;
}

/* Clang 16 warns on the conversions of its own taskloop code (on any loop
   variable type), so a project built with clang silences them here. */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wsign-conversion"
#pragma clang diagnostic ignored "-Wshorten-64-to-32"
#endif
static long taskloop_sum(void) {
  long total = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(10) reduction(+ : total)
  for (int i = 0; i < 100; i++)
    total += i;
  return total;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

int main(void) {
  long sum = 0, ordered_sum = 0, tasks = 0;
  int singles = 0, critical = 0, atomic = 0, locked = 0, nested = 0, user = 0;
  omp_lock_t lock;
  omp_nest_lock_t nest_lock;
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest_lock);
  omp_set_max_active_levels(2);

  POMP_USER_REGION_BEGIN("setup");
  user++;
  POMP_USER_REGION_END("setup");

#pragma omp parallel num_threads(2) shared(sum, ordered_sum, singles, critical, atomic, locked)
  {
    int me = omp_get_thread_num();
#pragma omp for reduction(+ : sum) schedule(static)
    for (int i = 0; i < 100; i++)
      sum += i;
#pragma omp for ordered schedule(dynamic, 7)
    for (int i = 0; i < 100; i++) {
#pragma omp ordered
      ordered_sum += i;
    }
#pragma omp for
    for (int i = 0; i < 100; i++) {
#pragma omp critical(count)
      {
        critical++;
#pragma omp flush
      }
#pragma omp atomic
      atomic++;
#pragma omp cancellation point for
    }
#pragma omp for simd nowait
    for (int i = 0; i < 100; i++) {
#pragma omp atomic
      atomic++;
    }
#pragma omp barrier
#pragma omp single
    singles++;
#pragma omp master
    {
      omp_set_nest_lock(&nest_lock);
      omp_set_nest_lock(&nest_lock);
      nested += 2;
      omp_unset_nest_lock(&nest_lock);
      omp_unset_nest_lock(&nest_lock);
    }
#pragma omp masked
    {
      if (omp_test_nest_lock(&nest_lock)) {
        nested += 2;
        omp_unset_nest_lock(&nest_lock);
      }
    }
    for (int i = 0; i < 20; i++) {
      omp_set_lock(&lock);
      locked++;
      omp_unset_lock(&lock);
    }
#pragma omp parallel num_threads(2) if (me >= 0)
    {
#pragma omp single
      {
#pragma omp taskgroup
        {
#pragma omp task if (me >= 0) final(me > 0)
          {
#pragma omp task if (me < 0)
            {
#pragma omp atomic
              tasks++;
            }
#pragma omp atomic
            tasks++;
          }
        }
      }
    }
#pragma omp single
    tasks += fib(10, 0);
  }
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest_lock);
  printf("sum %ld sections %d single %d critical %d ordered %ld atomic %d tasks %ld taskloop %ld locks %d nest %d "
         "user %d\n",
         sum, sections_run(), singles, critical, ordered_sum, atomic, tasks, taskloop_sum(), locked, nested, user);
  return 0;
}
