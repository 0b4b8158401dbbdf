#define OMPP_INSTRUMENTED 1 /* ompp-instrument output */
// Input that already is ompp output is compiled unchanged, never instrumented
// twice; --emit-source returns it byte for byte.
// DRIVER_ARGS: --emit-source -o again.c -- {cc} -fopenmp -c {src}
// DRIVER_ARGS: -- {cc} -fopenmp -c {src}
// DRIVER_STDERR: already instrumented
// DRIVER_EXISTS: already_instrumented.o
// DRIVER_THEN: cmp again.c {src}
int f(int n) { return n + 1; }
