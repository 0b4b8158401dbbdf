int main(void) {
  #pragma omp parallel
  {
    int x = ;
  }
  return 0;
}
// EXPECT-REWRITE-ERROR
