// -p <build dir>: the compiler command comes from compile_commands.json (here
// it defines FROM_DATABASE, without which the source does not parse).
// DRIVER_WRITE: build/compile_commands.json: [{"directory": "{dir}/build", "file": "{src}", "command": "{cc} -fopenmp -DFROM_DATABASE=1 -c {src} -o db.o"}]
// DRIVER_ARGS: -p {dir}/build --emit-source {src}
// DRIVER_STDOUT: POMP2_Parallel_fork\s*\(
// DRIVER_ABSENT: db.o
#if !FROM_DATABASE
#error "the command of compile_commands.json was not used"
#endif
int from_database = FROM_DATABASE;
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
