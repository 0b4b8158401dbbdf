// Pre-C99 C that GCC 12 compiles (with warnings, silenced here by -w) but
// Clang 16 rejects by default: a K&R definition with implicit int, a call to
// an undeclared function, an int-conversion, an incompatible function
// pointer and a `return;` in a non-void function (Rodinia's backprop, nn,
// kmeans).  ompp's parse accepts what GCC accepts, so the loop inside the
// K&R definition is instrumented (not skipped with a warning) and measured.
// DRIVER_COMPILERS: gcc
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp -w {src} -o prog
// DRIVER_STDERR_LINES: 0
// DRIVER_THEN: OMPP_QUIET=1 OMP_NUM_THREADS=2 ./prog && python3 -c "import glob; from ompp_profile import read_profile; print(*sorted(r.kind + '@' + str(r.first_line) for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()))"
// DRIVER_THEN_STDOUT: ^sum 45\nPARALLEL_LOOP@25$
#include <stdio.h>

static int unused_result(void) { return; }

scale(a, n)
float *a; int n;
{
  int i;
  int *as_int = a;
  long address = as_int;
  void (*print)(int) = puts;
  (void)address;
  (void)print;
#pragma omp parallel for
  for (i = 0; i < n; i++)
    a[i] = declared_later(i);
  return 0;
}

int declared_later(int i) { return i; }

int main(void) {
  float a[10];
  float sum = 0;
  scale(a, 10);
  for (int i = 0; i < 10; i++)
    sum += a[i];
  printf("sum %g\n", sum);
  return 0;
}
