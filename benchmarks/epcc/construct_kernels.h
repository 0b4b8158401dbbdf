/* construct_kernels.h - what construct_overhead.c (the driver) and
 * construct_kernels.c (the constructs it measures) share.
 *
 * construct_kernels.c is compiled once per variant: plainly as the set
 * `construct_set_plain`, through ompp-cc as `construct_set_ompp`
 * (-DCONSTRUCT_SET=plain|ompp).  The driver measures the set it is linked
 * with; linked with both, it measures them in one process, each construct's
 * plain and instrumented loops side by side in every round, so that what
 * the machine does meanwhile (another guest on the host, a CPU slowed for
 * minutes) falls on both alike. */
#ifndef OMPP_BENCHMARKS_CONSTRUCT_KERNELS_H
#define OMPP_BENCHMARKS_CONSTRUCT_KERNELS_H

/* innerreps instances of a construct (or of none: a reference loop). */
typedef void (*construct_loop)(long innerreps);

struct construct {
  const char *name;
  construct_loop test, reference;
};

struct construct_set {
  const struct construct *constructs;
  int count;
  void (*init)(void);   /* before the first loop */
  void (*finish)(void); /* after the last */
  const int *wrong_results; /* constructs that computed a wrong result */
};

/* EPCC's delay, in the driver: a loop of `length` trips the compiler cannot
 * remove, a call from either set (as EPCC's delay is in its own file). */
extern long delay_length;
void delay(long length);

#endif
