// Clang 16 crashes on this valid C++ (a template with an inscan reduction
// over a reference; GCC's libgomp.c++/scan-14.C).  With GCC the file is
// compiled unchanged with one warning, not a crash of ompp-instrument.
// DRIVER_COMPILERS: gcc
// DRIVER_WRITE: scan_template.cpp: template <typename T>\nvoid baz(T *a, T *b, T &r) {\n#pragma omp parallel for simd reduction(inscan, + : r)\n  for (T i = 0; i < 8; i++) {\n    b[i] = r;\n#pragma omp scan exclusive(r)\n    r += a[i];\n  }\n}\ntemplate void baz<int>(int *, int *, int &);
// DRIVER_ARGS: -- {cxx} -fopenmp -c {dir}/scan_template.cpp
// DRIVER_EXISTS: scan_template.o
// DRIVER_STDERR: ^ompp-instrument: warning: \S*scan_template\.cpp is compiled unchanged.*an internal error of Clang 16 while parsing this file\)$
// DRIVER_NOT_STDERR: PLEASE submit|Stack dump
// DRIVER_STDERR_LINES: 1
