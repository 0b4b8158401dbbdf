/* construct_overhead.c - the cost of each OpenMP construct, measured the way
 * the EPCC OpenMP micro-benchmarks (syncbench, taskbench) measure it.
 *
 * For every construct: time `innerreps` instances of a loop whose body is the
 * construct around a short delay, subtract the time of the same loop without
 * the construct (the reference), and divide by the number of instances.
 * The loops are in construct_kernels.c, compiled plainly or through ompp-cc
 * into a set (construct_kernels.h).  Linked with one set, this program
 * measures it; built once per set, the difference of the two programs'
 * figures is what ompp adds per instance.  Linked with both, it measures
 * both in one process: every round runs the reference, the plain and the
 * instrumented loop one after the other (in turn in the opposite order), and
 * what ompp adds is read round by round, from loops run within milliseconds
 * of each other (benchmarks/construct-overhead.py does either).
 *
 * Usage: construct_overhead [--time SECONDS] [--delay NANOSECONDS]
 *                           [--rounds N] [--only NAME]
 * With two threads or more it first prints
 *   TRANSFER line_ns=<x>
 * what one cache line takes from one thread to another (line_transfer_ns).
 * Then one line per construct, with one set:
 *   CONSTRUCT <name> threads=<n> instances=<n> overhead_ns=<x> reference_ns=<x>
 * where reference_ns is the reference loop's time per instance and each
 * figure the shortest of the rounds (on a shared machine noise only adds
 * time); with both sets:
 *   PAIRED <name> threads=<n> instances=<n> plain_ns=<x> ompp_ns=<x> rounds_added_ns=<x>,<x>,...
 * where plain_ns and ompp_ns are overheads as above and rounds_added_ns the
 * instrumented loop's time minus the plain loop's, per instance, in each
 * round.  Exit status 2 for bad usage, 1 when a construct computed a wrong
 * result. */
#include "construct_kernels.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sets this program is linked with (construct_kernels.c): one or both. */
extern const struct construct_set construct_set_plain __attribute__((weak));
extern const struct construct_set construct_set_ompp __attribute__((weak));

static double delay_ns = 100.0; /* EPCC's default delay: 0.1 microseconds */
long delay_length = 1;          /* loop trips of delay() for delay_ns */
static double target_seconds = 0.05;
static int rounds = 5;

void delay(long length) {
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

static double seconds_of(construct_loop loop, long innerreps) {
  double start = omp_get_wtime();
  loop(innerreps);
  return omp_get_wtime() - start;
}

static double shortest(const double *seconds, int count) {
  double best = seconds[0];
  for (int i = 1; i < count; i++)
    best = seconds[i] < best ? seconds[i] : best;
  return best;
}

/* EPCC picks innerreps so that one test takes the target time. */
static long choose_innerreps(construct_loop loop) {
  long innerreps = 64;
  for (;;) {
    double tries[3];
    for (int t = 0; t < 3; t++)
      tries[t] = seconds_of(loop, innerreps);
    double t = shortest(tries, 3);
    if (t >= target_seconds / 4 || innerreps > (1L << 30))
      return (long)(innerreps * target_seconds / (t > 1e-9 ? t : 1e-9)) + 1;
    innerreps *= 4;
  }
}

static void measure(const struct construct *c) {
  long innerreps = choose_innerreps(c->test);
  double test[rounds], ref[rounds];
  for (int r = 0; r < rounds; r++) {
    ref[r] = seconds_of(c->reference, innerreps);
    test[r] = seconds_of(c->test, innerreps);
  }
  double best_ref = shortest(ref, rounds);
  printf("CONSTRUCT %s threads=%d instances=%ld overhead_ns=%.1f reference_ns=%.1f\n", c->name,
         omp_get_max_threads(), innerreps, (shortest(test, rounds) - best_ref) / innerreps * 1e9,
         best_ref / innerreps * 1e9);
  fflush(stdout);
}

/* One construct of both sets, round by round: reference, plain, instrumented,
 * and in the next round the other way round, so that a drift of the
 * machine's speed within a round favours neither. */
static void measure_paired(const struct construct *plain, const struct construct *ompp) {
  long innerreps = choose_innerreps(plain->test);
  double ref[rounds], plain_test[rounds], ompp_test[rounds];
  for (int r = 0; r < rounds; r++) {
    if (r % 2 == 0) {
      ref[r] = seconds_of(plain->reference, innerreps);
      plain_test[r] = seconds_of(plain->test, innerreps);
      ompp_test[r] = seconds_of(ompp->test, innerreps);
    } else {
      ompp_test[r] = seconds_of(ompp->test, innerreps);
      plain_test[r] = seconds_of(plain->test, innerreps);
      ref[r] = seconds_of(plain->reference, innerreps);
    }
  }
  double best_ref = shortest(ref, rounds);
  printf("PAIRED %s threads=%d instances=%ld plain_ns=%.1f ompp_ns=%.1f rounds_added_ns=", plain->name,
         omp_get_max_threads(), innerreps, (shortest(plain_test, rounds) - best_ref) / innerreps * 1e9,
         (shortest(ompp_test, rounds) - best_ref) / innerreps * 1e9);
  for (int r = 0; r < rounds; r++)
    printf("%s%.1f", r > 0 ? "," : "", (ompp_test[r] - plain_test[r]) / innerreps * 1e9);
  printf("\n");
  fflush(stdout);
}

/* What one cache line takes from one thread of the team to another: half a
 * round trip of a flag two threads hand back and forth.  Every line a
 * profiler passes between threads on a construct's critical path costs about
 * this much (on a VM it can be several times what the same CPUs take bare).
 * Bounded in time: threads sharing a CPU would hand over once per time slice.
 * The least of three tries. */
static double line_transfer_ns(void) {
  static _Alignas(64) long flag;
  const double budget_s = 0.02;
  double best = 1e30;
  for (int attempt = 0; attempt < 3; attempt++) {
    long trips = 0;
    double seconds = 0.0;
    __atomic_store_n(&flag, 0, __ATOMIC_RELAXED);
#pragma omp parallel num_threads(2) shared(trips, seconds)
    if (omp_get_num_threads() == 2) {
      if (omp_get_thread_num() == 0) {
        double start = omp_get_wtime(), now = start;
        long t = 0;
        for (; now - start < budget_s; t++) {
          __atomic_store_n(&flag, 2 * t + 1, __ATOMIC_RELEASE);
          while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) != 2 * t + 2)
            ;
          if (t % 64 == 0)
            now = omp_get_wtime();
        }
        seconds = omp_get_wtime() - start;
        trips = t;
        __atomic_store_n(&flag, -1, __ATOMIC_RELEASE);
      } else {
        for (long seen; (seen = __atomic_load_n(&flag, __ATOMIC_ACQUIRE)) != -1;)
          if (seen % 2 == 1)
            __atomic_store_n(&flag, seen + 1, __ATOMIC_RELEASE);
      }
    }
    if (trips > 0 && seconds / trips / 2 * 1e9 < best)
      best = seconds / trips / 2 * 1e9;
  }
  return best;
}

static void usage(const char *program) {
  fprintf(stderr, "usage: %s [--time SECONDS] [--delay NANOSECONDS] [--rounds N] [--only NAME]\n", program);
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
    } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
      long n = strtol(argv[++i], &end, 10);
      if (*end != '\0' || n < 1 || n > 1000)
        usage(argv[0]);
      rounds = (int)n;
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else {
      usage(argv[0]);
    }
  }
  const struct construct_set *plain = &construct_set_plain, *ompp = &construct_set_ompp;
  const struct construct_set *sets[2];
  int linked = 0;
  if (plain != NULL)
    sets[linked++] = plain;
  if (ompp != NULL)
    sets[linked++] = ompp;
  if (linked == 0) {
    fprintf(stderr, "%s: linked with no construct set (construct_kernels.c)\n", argv[0]);
    return 2;
  }
  calibrate_delay();
  if (omp_get_max_threads() >= 2) {
    printf("TRANSFER line_ns=%.1f\n", line_transfer_ns());
    fflush(stdout);
  }
  for (int s = 0; s < linked; s++)
    sets[s]->init();
  int measured = 0;
  for (int i = 0; i < sets[0]->count; i++) {
    if (only != NULL && strcmp(only, sets[0]->constructs[i].name) != 0)
      continue;
    if (linked == 2)
      measure_paired(&plain->constructs[i], &ompp->constructs[i]);
    else
      measure(&sets[0]->constructs[i]);
    measured++;
  }
  int wrong_results = 0;
  for (int s = 0; s < linked; s++) {
    sets[s]->finish();
    wrong_results += *sets[s]->wrong_results;
  }
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
