/* construct_kernels.c - one loop per OpenMP construct, as the EPCC OpenMP
 * micro-benchmarks (syncbench, taskbench) write them, and their reference
 * loops: the same delays without the construct.  Compiled with
 * -DCONSTRUCT_SET=plain or -DCONSTRUCT_SET=ompp into the set of that name
 * (construct_kernels.h); construct_overhead.c measures them. */
#include "construct_kernels.h"

#include <omp.h>

#ifndef CONSTRUCT_SET
#error "compile with -DCONSTRUCT_SET=plain or -DCONSTRUCT_SET=ompp"
#endif
#define SET_SYMBOL(variant) SET_SYMBOL_(variant)
#define SET_SYMBOL_(variant) construct_set_##variant

static int wrong_results = 0;

static void reference(long innerreps) {
  for (long j = 0; j < innerreps; j++)
    delay(delay_length);
}

static void reference_in_parallel(long innerreps) {
#pragma omp parallel
  for (long j = 0; j < innerreps; j++)
    delay(delay_length);
}

static void test_parallel(long innerreps) {
  for (long j = 0; j < innerreps; j++) {
#pragma omp parallel
    delay(delay_length);
  }
}

static void test_for(long innerreps) {
#pragma omp parallel
  for (long j = 0; j < innerreps; j++) {
    int n = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < n; i++)
      delay(delay_length);
  }
}

static void test_parallel_for(long innerreps) {
  int n = omp_get_max_threads();
  for (long j = 0; j < innerreps; j++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      delay(delay_length);
  }
}

static void test_barrier(long innerreps) {
#pragma omp parallel
  for (long j = 0; j < innerreps; j++) {
    delay(delay_length);
#pragma omp barrier
  }
}

static void test_single(long innerreps) {
#pragma omp parallel
  for (long j = 0; j < innerreps; j++) {
#pragma omp single
    delay(delay_length);
  }
}

/* Mutual exclusion: every thread does innerreps/n instances, as EPCC does. */
static void test_critical(long innerreps) {
#pragma omp parallel
  {
    long mine = innerreps / omp_get_num_threads();
    for (long j = 0; j < mine; j++) {
#pragma omp critical
      delay(delay_length);
    }
  }
}

static void reference_mutex(long innerreps) {
#pragma omp parallel
  {
    long mine = innerreps / omp_get_num_threads();
    for (long j = 0; j < mine; j++)
      delay(delay_length);
  }
}

static omp_lock_t lock;

static void test_lock(long innerreps) {
#pragma omp parallel
  {
    long mine = innerreps / omp_get_num_threads();
    for (long j = 0; j < mine; j++) {
      omp_set_lock(&lock);
      delay(delay_length);
      omp_unset_lock(&lock);
    }
  }
}

static void test_atomic(long innerreps) {
  double sum = 0.0;
#pragma omp parallel shared(sum)
  {
    long mine = innerreps / omp_get_num_threads();
    for (long j = 0; j < mine; j++) {
      delay(delay_length);
#pragma omp atomic
      sum += 1.0;
    }
  }
  long expected = innerreps / omp_get_max_threads() * omp_get_max_threads();
  if (sum < (double)expected - 0.5 || sum > (double)innerreps + 0.5)
    wrong_results++;
}

static void test_reduction(long innerreps) {
  for (long j = 0; j < innerreps; j++) {
    int count = 0;
#pragma omp parallel reduction(+ : count)
    {
      delay(delay_length);
      count += 1;
    }
    if (count < 1)
      wrong_results++;
  }
}

/* taskbench's PARALLEL TASK: every thread creates innerreps/n tasks. */
static void test_task(long innerreps) {
#pragma omp parallel
  {
    long mine = innerreps / omp_get_num_threads();
    for (long j = 0; j < mine; j++) {
#pragma omp task
      delay(delay_length);
    }
  }
}

static const struct construct constructs[] = {
    {"PARALLEL", test_parallel, reference},
    {"FOR", test_for, reference_in_parallel},
    {"PARALLEL_FOR", test_parallel_for, reference},
    {"BARRIER", test_barrier, reference_in_parallel},
    {"SINGLE", test_single, reference_in_parallel},
    {"CRITICAL", test_critical, reference_mutex},
    {"LOCK", test_lock, reference_mutex},
    {"ATOMIC", test_atomic, reference_mutex},
    {"REDUCTION", test_reduction, reference},
    {"TASK", test_task, reference_mutex},
};

static void init(void) { omp_init_lock(&lock); }
static void finish(void) { omp_destroy_lock(&lock); }

const struct construct_set SET_SYMBOL(CONSTRUCT_SET) = {
    constructs, sizeof constructs / sizeof constructs[0], init, finish, &wrong_results,
};
