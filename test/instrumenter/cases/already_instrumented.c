#define OMPP_INSTRUMENTED 1 /* ompp-instrument output */
int main(void) {
  #pragma omp parallel
  { }
  return 0;
}
// EXPECT-UNCHANGED
