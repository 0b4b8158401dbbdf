// The compiler's own failure (an undefined symbol at link time) is the exit
// status, and no program is left.
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_EXIT: 1
// DRIVER_STDERR: undefined reference to .?not_defined_anywhere
// DRIVER_ABSENT: prog
void not_defined_anywhere(void);
int main(void) {
#pragma omp parallel
  not_defined_anywhere();
  return 0;
}
