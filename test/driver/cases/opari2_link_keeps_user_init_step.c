// An --opari2-compatible link whose inputs already went through OPARI2's init
// step (an object defining POMP2_Init_regions) adds no second one.
// DRIVER_WRITE: init.c: #include <stddef.h>\nvoid POMP2_Init_regions(void) {}\nsize_t POMP2_Get_num_regions(void) { return 41; }\nvoid POMP2_USER_Init_regions(void) {}\nsize_t POMP2_USER_Get_num_regions(void) { return 0; }
// DRIVER_ARGS: -- {cc} -c {dir}/init.c -o init.o
// DRIVER_ARGS: --opari2-compatible --runtime-library=/usr/lib/libpomp.a -- {cc} -fopenmp {src} init.o -o prog
// DRIVER_THEN: OMP_NUM_THREADS=1 ./prog
// DRIVER_THEN_STDOUT: ^regions 41$
#include <stddef.h>
#include <stdio.h>
size_t POMP2_Get_num_regions(void);
int main(void) {
  printf("regions %zu\n", POMP2_Get_num_regions());
  return 0;
}
