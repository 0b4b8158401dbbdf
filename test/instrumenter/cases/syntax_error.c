int main(void) {
  #pragma omp parallel
  {
    int x = ;
  }
  return 0;
}
// EXPECT-REWRITE-ERROR
// TEXTUAL-DIFFERS: tokens do not see syntax errors (the compiler reports them)
