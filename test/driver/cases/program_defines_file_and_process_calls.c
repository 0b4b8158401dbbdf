// The sequel of program_defines_read_and_write.c: a C program may define
// any POSIX name that ISO C leaves free (stat() for its statistics, link()
// and unlink() for its graph, pipe() for a pipeline stage, ...), and linked
// with libompp the executable exports them, so a call by that name from
// libompp or libstdc++ would run the program's function. libompp writes its
// profile (to a directory it creates, under a temporary name, then linked
// or renamed into place), its trace spill files and its deadlock report
// (addr2line through a pipe) without calling any of them. Each of the
// program's functions names its caller; in the plain program only main and
// the OpenMP runtime call them (libomp calls getpid()), and each run of the
// instrumented program must show the same callers. Only names a program may not define (ISO C's, POSIX's
// posix_*) stay libc's; ISO C's rename() is covered all the same, as
// programs do define it.
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp {src} -o prog
// DRIVER_THEN: {cc} -fopenmp {src} -o plain && OMP_NUM_THREADS=2 ./plain 2>&1 | grep ' ran, ' | sort -u > plain.calls; grep -c 'ran, called by the program$' plain.calls
// DRIVER_THEN: OMP_NUM_THREADS=2 OMPP_QUIET=1 OMPP_OUTDIR=out/new ./prog 2>&1 | grep ' ran, ' | sort -u > outdir.calls; cmp plain.calls outdir.calls && ls out/new/prog.2-0.ompp.json
// DRIVER_THEN: for i in 1 2; do OMP_NUM_THREADS=2 OMPP_QUIET=1 OMPP_REPORTFILE=report.txt ./prog 2>&1 | grep ' ran, ' | sort -u > report$i.calls; cmp plain.calls report$i.calls || exit 1; done; ls report.json
// DRIVER_THEN: mkdir trace.otf2 && OMP_NUM_THREADS=2 OMPP_QUIET=1 OMPP_TRACE=1 OMPP_TRACE_BUFFER=4096 OMPP_REPORTFILE=trace.txt TMPDIR=$PWD ./prog 2>&1 | grep ' ran, ' | sort -u > trace.calls; cmp plain.calls trace.calls
// DRIVER_THEN: OMP_NUM_THREADS=2 OMPP_QUIET=1 OMPP_DEADLOCK=abort OMPP_REPORTFILE=deadlock.txt ./prog deadlock > deadlock.err 2>&1; test $? = 86 && grep -q 'DEADLOCK' deadlock.err && grep ' ran, ' deadlock.err | sort -u > deadlock.calls; cmp plain.calls deadlock.calls
// DRIVER_THEN_STDOUT: ^15$
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

// Names the function and the object that called it: the program, or the
// library (libgomp, libomp: the plain program's calls too; libompp's
// libraries must never appear).
static void report(const char *name, void *return_address) {
  Dl_info caller, program;
  const char *by = "?";
  if (dladdr(return_address, &caller) != 0) {
    by = caller.dli_fname;
    if (dladdr((void *)report, &program) != 0 && caller.dli_fbase == program.dli_fbase)
      by = "the program";
  }
  fprintf(stderr, "%s ran, called by %s\n", name, by);
}
#define ran(name) report(name, __builtin_return_address(0))

// The program's own functions, with their own meanings and signatures;
// each answers -1 ("none", as a long where no header declares it: all of
// the return register) without touching its arguments, so that a call from
// libompp (before kernel_io) is reported rather than crashing it.
long stat(const double *values, int n) { ran("stat"); (void)values; (void)n; return -1; }
long lstat(const double *values, int n) { ran("lstat"); (void)values; (void)n; return -1; }
long mkdir(int level) { ran("mkdir"); (void)level; return -1; }
long unlink(int node) { ran("unlink"); (void)node; return -1; }
long link(int from, int to) { ran("link"); (void)from; (void)to; return -1; }
int rename(const char *old_name, const char *new_name) { ran("rename"); (void)old_name; (void)new_name; return -1; }
int renameat2(int old_table, const char *old_name, int new_table, const char *new_name, unsigned flags) {
  ran("renameat2");
  (void)old_table, (void)old_name, (void)new_table, (void)new_name, (void)flags;
  return -1;
}
int mkostemp(char *stage, int flags) { ran("mkostemp"); (void)stage; (void)flags; return -1; }
long readlink(int node) { ran("readlink"); (void)node; return -1; }
long pipe(int stage) { ran("pipe"); (void)stage; return -1; }
long pipe2(int stage) { ran("pipe2"); (void)stage; return -1; }
long waitpid(int worker) { ran("waitpid"); (void)worker; return -1; }
// libomp calls getpid() for itself: this one logs and answers the truth.
long getpid(void) {
  long (*real)(void) = (long (*)(void))dlsym(RTLD_NEXT, "getpid");
  ran("getpid");
  return real();
}
long gethostname(void) { ran("gethostname"); return -1; }
long nanosleep(double seconds) { ran("nanosleep"); (void)seconds; return -1; }

int main(int argc, char **argv) {
  const double series[2] = {1, 2};
  char stage[] = "stage";
  int none = 0;
  none += stat(series, 2) == -1;
  none += lstat(series, 2) == -1;
  none += mkdir(0) == -1;
  none += unlink(0) == -1;
  none += link(0, 0) == -1;
  none += rename("a", "b") == -1;
  none += renameat2(0, "a", 0, "b", 0) == -1;
  none += mkostemp(stage, 0) == -1;
  none += readlink(0) == -1;
  none += pipe(0) == -1;
  none += pipe2(0) == -1;
  none += waitpid(0) == -1;
  none += getpid() > 0;
  none += gethostname() == -1;
  none += nanosleep(0) == -1;
  long sum = 0;
  omp_lock_t a, b;
  omp_init_lock(&a);
  omp_init_lock(&b);
  if (argc > 1 && strcmp(argv[1], "deadlock") == 0) {
    // Lock-order inversion: the deadlock report names where each lock was set.
#pragma omp parallel num_threads(2)
    {
      int me = omp_get_thread_num();
      omp_set_lock(me == 0 ? &a : &b);
#pragma omp barrier
      omp_set_lock(me == 0 ? &b : &a);
    }
  }
  // Enough events to spill a small trace buffer to its file.
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 20000; i++) {
#pragma omp atomic
    none++;
    sum += i;
  }
  omp_destroy_lock(&a);
  omp_destroy_lock(&b);
  return sum == 199990000L && none == 20000 + 15 ? 0 : 1;
}
