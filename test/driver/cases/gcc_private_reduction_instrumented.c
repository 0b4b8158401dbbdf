// A reduction on a reference parameter in an orphaned `for`: GCC accepts it,
// Clang 16 says "reduction variable must be shared" (GCC's libgomp.c++/scan-10.C).
// With GCC the file is instrumented by the textual front end and measured.
// DRIVER_COMPILERS: gcc
// DRIVER_WRITE: reduction.cpp: #include <cstdio>\nvoid foo(int *a, int &r) {\n#pragma omp for reduction(+ : r)\n  for (int i = 0; i < 8; i++)\n    r += a[i];\n}\nint main() {\n  int a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, r = 0;\n#pragma omp parallel num_threads(2)\n  foo(a, r);\n  std::printf("%d ", r);\n  return 0;\n}
// DRIVER_ARGS: {runtime} -- {cxx} -fopenmp {dir}/reduction.cpp -o prog
// DRIVER_STDERR_LINES: 0
// DRIVER_THEN: OMPP_QUIET=1 OMP_NUM_THREADS=2 ./prog && python3 -c "import glob; from ompp_profile import read_profile; print(*sorted(r.kind + '@' + str(r.first_line) for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()))"
// DRIVER_THEN_STDOUT: ^36 LOOP@3 PARALLEL@9$
int unused;
