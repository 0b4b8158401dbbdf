// Inputs that are not C/C++ (here assembly) are compiled as they are, next to
// instrumented C sources of the same command.
// DRIVER_WRITE: answer.s: .text\n.globl answer\nanswer:\nmovl $42, %eax\nret
// DRIVER_ARGS: -- {cc} -fopenmp -c {src} {dir}/answer.s
// DRIVER_EXISTS: answer.o
// DRIVER_EXISTS: assembly_input_compiled_as_is.o
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} {dir}/answer.s -o prog
// DRIVER_THEN: ./prog
// DRIVER_THEN_STDOUT: ^answer 42$
#include <stdio.h>
int answer(void);
int main(void) {
  int a = 0;
#pragma omp parallel num_threads(1)
  a = answer();
  printf("answer %d\n", a);
  return 0;
}
