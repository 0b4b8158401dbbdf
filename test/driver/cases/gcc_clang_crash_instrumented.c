// Clang 16 crashes on this valid C++ (a template with an inscan reduction
// over a reference; GCC's libgomp.c++/scan-14.C).  With GCC that is no crash
// of ompp-instrument: the file is instrumented by the textual front end (the
// one note is the plan's, on the inscan reduction of the split construct).
// DRIVER_COMPILERS: gcc
// DRIVER_WRITE: scan_template.cpp: template <typename T>\nvoid baz(T *a, T *b, T &r) {\n#pragma omp parallel for simd reduction(inscan, + : r)\n  for (T i = 0; i < 8; i++) {\n    b[i] = r;\n#pragma omp scan exclusive(r)\n    r += a[i];\n  }\n}\ntemplate void baz<int>(int *, int *, int &);
// DRIVER_ARGS: -- {cxx} -fopenmp -c {dir}/scan_template.cpp
// DRIVER_EXISTS: scan_template.o
// DRIVER_STDERR: ^\S*scan_template\.cpp:3: note: 'parallel for simd' at line 3 is split
// DRIVER_NOT_STDERR: PLEASE submit|Stack dump
// DRIVER_STDERR_LINES: 1
