/* A header that relies on being its own file (#pragma once) is not inlined:
 * one warning at the #include names it, its first directive and why. */
#include "header_pragma_once.h"
#include <stdio.h>
int main(void) {
  #pragma omp flush
  printf("%d\n", count_threads_once() > 0);
  return 0;
}
// EXPECT-WARNING: header_pragma_once.c:3:(\d+:)? warning: not instrumented: 1 OpenMP directive in header '\S*header_pragma_once.h' \(first at line 5; the header could not be inlined: it uses #pragma once\)
// STDOUT: 1
// T1: Flush_count flush@6
