// -c without -o: the object is named after the ORIGINAL source, in the
// current directory, as the compiler would name it.
// DRIVER_ARGS: -- {cc} -fopenmp -c {src}
// DRIVER_EXIT: 0
// DRIVER_EXISTS: compile_default_object_name.o
int work(int n) {
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i)
    sum += i;
  return sum;
}
