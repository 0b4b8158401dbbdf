/* Used by header_pragma_once.c. */
#pragma once
static inline int count_threads_once(void) {
  int n = 0;
  #pragma omp parallel reduction(+ : n)
  n++;
  return n;
}
