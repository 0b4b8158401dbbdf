/* OpenMP code in a header (used by header_pragmas.c): not rewritten, one
 * warning names this header and its first directive. */
#ifndef HEADER_PRAGMAS_H
#define HEADER_PRAGMAS_H
static inline int count_threads(void) {
  int n = 0;
  #pragma omp parallel
  {
    #pragma omp atomic
    n++;
  }
  return n;
}
#endif
