// With clang as the compiler, what Clang cannot parse is the user's error
// (a GNU nested function): its diagnostics, status 1, no output file.
// DRIVER_COMPILERS: clang
// DRIVER_ARGS: -- {cc} -fopenmp -c {src} -o nested.o
// DRIVER_EXIT: 1
// DRIVER_STDERR: clang_parse_error_stays_error\.c:10:\d+: error: function definition is not allowed here
// DRIVER_NOT_STDERR: warning: .*compiled unchanged
// DRIVER_ABSENT: nested.o
int outer(int n) {
  int inner(int x) { return x + 1; }
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += inner(i);
  return s;
}
