/* Lines put before ompp's output by another tool: the marker is still
 * found and the file is returned unchanged. */
# 1 "already_instrumented_later.c"
#define OMPP_INSTRUMENTED 1 /* ompp-instrument output */
int main(void) {
  #pragma omp parallel
  { }
  return 0;
}
// EXPECT-UNCHANGED
