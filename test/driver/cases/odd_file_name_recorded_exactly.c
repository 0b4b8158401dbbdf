// A source whose name holds '*' (the CTC field separator), '%' (the CTC
// escape) and '\' is parsed, and the profile names it exactly, with its
// lines (it used to become file "odd", lines 0-0).
// DRIVER_WRITE: odd*name%25\x.c: #include <stdio.h>\nint main(void) {\n  int s = 0;\n#pragma omp parallel reduction(+ : s)\n  s += 1;\n  puts(s > 0 ? "ran" : "did not run");\n  return 0;\n}
// DRIVER_ARGS: {runtime} -- {cc} -fopenmp '{dir}/odd*name%25\x.c' -o prog
// DRIVER_NOT_STDERR: warning
// DRIVER_THEN: OMP_NUM_THREADS=2 ./prog
// DRIVER_THEN: grep -F 'R00001 odd*name%25\x.c (4-5) in main PARALLEL' prog.*.ompp.txt
// DRIVER_THEN_STDOUT: ^ran$
