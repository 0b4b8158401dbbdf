// OpenMP directives compiled without -fopenmp (a Makefile that picks flags
// by the compiler's name): a warning at the first directive says the
// program will run serially and names the flag to add.
// DRIVER_ARGS: -- {cc} -O1 -c {src}
// DRIVER_EXISTS: missing_fopenmp_warns.o
// DRIVER_NOT_STDERR: run serially[\s\S]*run serially
// DRIVER_STDERR: ^\S*missing_fopenmp_warns\.c:10:1: warning: .*without -fopenmp: the program will run serially \(add -fopenmp
int f(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += i;
#pragma omp parallel
  s++;
  return s;
}
