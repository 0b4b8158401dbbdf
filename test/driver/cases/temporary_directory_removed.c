// Without --keep-temps nothing of the temporary directory remains, after a
// successful build and after a failed one.
// DRIVER_ENV: TMPDIR={out}
// DRIVER_WRITE: broken.c: int broken( {
// DRIVER_ARGS: -- {cc} -fopenmp {src} -o prog {runtime}
// DRIVER_ARGS: -- {cc} -fopenmp -c {dir}/broken.c
// DRIVER_EXIT: 1
// DRIVER_THEN: test -z "$(ls -d ompp-instrument-* 2>/dev/null)"
// DRIVER_EXISTS: prog
int main(void) {
  int n = 0;
#pragma omp parallel
  n = 1;
  return n - 1;
}
