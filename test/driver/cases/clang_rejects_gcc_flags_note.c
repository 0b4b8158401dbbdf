// A Makefile's GCC-only flag fails with Clang (ompp's default compiler):
// Clang's own error stays, the exit status is the compiler's, and ompp says
// which compiler ran and how to wrap GCC instead.
// DRIVER_COMPILERS: clang
// DRIVER_ARGS: -- {cc} -fopenmp -ftree-vectorizer-verbose=2 -c {src}
// DRIVER_EXIT: 1
// DRIVER_STDERR: unknown argument: '-ftree-vectorizer-verbose=2'
// DRIVER_STDERR: note: the compiler is .*, which does not know -ftree-vectorizer-verbose=2; .*OMPP_CXX=g\+\+
// DRIVER_ABSENT: clang_rejects_gcc_flags_note.o
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
