/* construct_overhead.c - the cost of each OpenMP construct, measured the way
 * the EPCC OpenMP micro-benchmarks (syncbench, taskbench) measure it.
 *
 * For every construct: time `innerreps` instances of a loop whose body is the
 * construct around a short delay, subtract the time of the same loop without
 * the construct (the reference), and divide by the number of instances.
 * Built plain and through ompp-cc, the difference of the two figures is what
 * ompp adds per instance (benchmarks/construct-overhead.py does that).
 *
 * Usage: construct_overhead [--time SECONDS] [--delay NANOSECONDS] [--only NAME]
 * Prints one line per construct:
 *   CONSTRUCT <name> threads=<n> instances=<n> overhead_ns=<x> reference_ns=<x>
 * where reference_ns is the reference loop's time per instance.  Exit status
 * 2 for bad usage, 1 when a construct computed a wrong result. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double delay_ns = 100.0;   /* EPCC's default delay: 0.1 microseconds */
static long delay_length = 1;     /* loop trips of delay() for delay_ns */
static double target_seconds = 0.05;
static int wrong_results = 0;

/* EPCC's delay: a loop the compiler cannot remove. */
static void delay(long length) {
  volatile double a = 0.0;
  for (long i = 0; i < length; i++)
    a += (double)i;
  if (a < 0)
    printf("%f\n", a);
}

static void calibrate_delay(void) {
  long length = 1024;
  for (;;) {
    double per_call_ns = 1e30; /* the fastest of 20 calls: noise only adds time */
    for (int r = 0; r < 20; r++) {
      double start = omp_get_wtime();
      delay(length);
      double ns = (omp_get_wtime() - start) * 1e9;
      per_call_ns = ns < per_call_ns ? ns : per_call_ns;
    }
    if (per_call_ns > 20000 || length > (1L << 26)) {
      delay_length = (long)(length * delay_ns / per_call_ns);
      if (delay_length < 1)
        delay_length = 1;
      return;
    }
    length *= 2;
  }
}

typedef void (*test_fn)(long innerreps);

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

struct construct {
  const char *name;
  test_fn test, reference;
};

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

/* The shortest of `tries` runs: on a shared machine noise only adds time
 * (a descheduled thread stalls every barrier of its team). */
static double seconds_of(test_fn fn, long innerreps, int tries) {
  double best = 1e30;
  for (int t = 0; t < tries; t++) {
    double start = omp_get_wtime();
    fn(innerreps);
    double took = omp_get_wtime() - start;
    best = took < best ? took : best;
  }
  return best;
}

/* EPCC picks innerreps so that one test takes the target time. */
static long choose_innerreps(test_fn fn) {
  long innerreps = 64;
  for (;;) {
    double t = seconds_of(fn, innerreps, 3);
    if (t >= target_seconds / 4 || innerreps > (1L << 30))
      return (long)(innerreps * target_seconds / (t > 1e-9 ? t : 1e-9)) + 1;
    innerreps *= 4;
  }
}

static void measure(const struct construct *c) {
  long innerreps = choose_innerreps(c->test);
  double best_test = 1e30, best_ref = 1e30;
  for (int r = 0; r < 5; r++) {
    double ref = seconds_of(c->reference, innerreps, 1);
    double test = seconds_of(c->test, innerreps, 1);
    best_ref = ref < best_ref ? ref : best_ref;
    best_test = test < best_test ? test : best_test;
  }
  printf("CONSTRUCT %s threads=%d instances=%ld overhead_ns=%.1f reference_ns=%.1f\n", c->name,
         omp_get_max_threads(), innerreps, (best_test - best_ref) / innerreps * 1e9,
         best_ref / innerreps * 1e9);
  fflush(stdout);
}

static void usage(const char *program) {
  fprintf(stderr, "usage: %s [--time SECONDS] [--delay NANOSECONDS] [--only NAME]\n", program);
  exit(2);
}

int main(int argc, char **argv) {
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    char *end = NULL;
    if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) {
      target_seconds = strtod(argv[++i], &end);
      if (*end != '\0' || !(target_seconds > 0))
        usage(argv[0]);
    } else if (strcmp(argv[i], "--delay") == 0 && i + 1 < argc) {
      delay_ns = strtod(argv[++i], &end);
      if (*end != '\0' || !(delay_ns >= 0))
        usage(argv[0]);
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else {
      usage(argv[0]);
    }
  }
  calibrate_delay();
  omp_init_lock(&lock);
  int measured = 0;
  for (size_t i = 0; i < sizeof constructs / sizeof constructs[0]; i++) {
    if (only != NULL && strcmp(only, constructs[i].name) != 0)
      continue;
    measure(&constructs[i]);
    measured++;
  }
  omp_destroy_lock(&lock);
  if (measured == 0) {
    fprintf(stderr, "%s: no construct named %s\n", argv[0], only);
    return 2;
  }
  if (wrong_results) {
    fprintf(stderr, "%s: %d wrong results\n", argv[0], wrong_results);
    return 1;
  }
  return 0;
}
