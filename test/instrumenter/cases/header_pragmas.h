/* OpenMP code in a header (used by header_pragmas.c), inlined into the file
 * that includes it; the declarative directive is left as it is. */
#ifndef HEADER_PRAGMAS_H
#define HEADER_PRAGMAS_H
#pragma omp declare reduction(maxi : int : omp_out = omp_out > omp_in ? omp_out : omp_in) \
    initializer(omp_priv = 0)
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
