// GCC's libgomp.c-c++-common/for-*.c, cut down: a header included twice
// under different macros, whose `#pragma omp F` names its construct by a
// macro, with a loop increment Clang 16 rejects.  Clang's parse of the main
// file skips the header's function bodies; inlined, they do not parse, so
// with GCC the unit is read by the textual front end, which reads each pragma
// with its macros expanded.  Both loops are measured, in the header's lines.
// DRIVER_COMPILERS: gcc
// DRIVER_WRITE: body.h: void N(int *a) {\n  int i;\n#pragma omp F\n  for (i = 0; i < 8; i = i + 1 + 1)\n    a[i] += 1;\n}
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_STDERR: note: the tasks of 'taskloop' at line 3 are not measured individually
// DRIVER_STDERR_LINES: 1
// DRIVER_THEN: OMPP_QUIET=1 OMP_NUM_THREADS=2 ./prog && python3 -c "import glob; from ompp_profile import read_profile; print(*sorted(r.kind + '@' + r.file.split('/')[-1] + ':' + str(r.first_line) for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()))"
// DRIVER_THEN_STDOUT: ^8 \nPARALLEL@gcc_header_macro_pragma_instrumented.c:26 PARALLEL_LOOP@body.h:3 SINGLE@gcc_header_macro_pragma_instrumented.c:27 TASKLOOP@body.h:3$
#include <stdio.h>
#define F parallel for
#define N(a) first(a)
#include "body.h"
#undef F
#undef N
#define F taskloop
#define N(a) second(a)
#include "body.h"
int main(void) {
  int a[8] = {0}, s = 0;
  first(a);
#pragma omp parallel
#pragma omp single
  second(a);
  for (int i = 0; i < 8; i++)
    s += a[i];
  printf("%d \n", s);
  return 0;
}
