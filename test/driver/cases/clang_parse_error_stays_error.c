// With clang as the compiler, what Clang cannot parse is the user's error
// (a GNU nested function): clang's own diagnostics (its warnings too, which
// ompp's parse does not show), status 1, no output file.
// DRIVER_COMPILERS: clang
// DRIVER_ARGS: -- {cc} -fopenmp -Wall -c {src} -o nested.o
// DRIVER_EXIT: 1
// DRIVER_STDERR: clang_parse_error_stays_error\.c:14:\d+: error: function definition is not allowed here
// DRIVER_STDERR: clang_parse_error_stays_error\.c:12:\d+: warning: using the result of an assignment
// DRIVER_NOT_STDERR: compiled unchanged
// DRIVER_ABSENT: nested.o
int outer(int n) {
  if (n = 0)
    return 0;
  int inner(int x) { return x + 1; }
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += inner(i);
  return s;
}
