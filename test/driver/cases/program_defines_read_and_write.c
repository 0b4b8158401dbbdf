// A C program may define functions named like POSIX's read() and write()
// for its own files (Rodinia's myocyte: `void read(char *filename, ...)`);
// it includes no <unistd.h>, so nothing clashes. Linked with libompp, the
// executable then exports these symbols, and any call to read()/write() from
// libompp or libstdc++ would land in the program's functions: the runtime
// used to read /proc/cpuinfo through std::ifstream and write the profile
// with write(), so myocyte span in its own read() and no profile was written.
// The runtime's I/O must reach the kernel whatever the program defines.
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_THEN: OMPP_QUIET=1 OMP_NUM_THREADS=2 ./prog && python3 -c "import glob; from ompp_profile import read_profile; print(*sorted(r.kind for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()))"
// DRIVER_THEN_STDOUT: ^read 1 write 1 sum 4950\nPARALLEL_LOOP$
#include <stdio.h>

static int reads, writes;

int read(const char *name, int *value) {
  (void)name;
  (void)value;
  reads++;
  return -1;
}

int write(const char *name, int value) {
  (void)name;
  (void)value;
  writes++;
  return -1;
}

int main(void) {
  int sum = 0;
  read("input.txt", &sum);
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 100; i++)
    sum += i;
  write("output.txt", sum);
  printf("read %d write %d sum %d\n", reads, writes, sum);
  return 0;
}
