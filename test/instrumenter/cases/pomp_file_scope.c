/* `#pragma pomp inst` stands for a call: outside a function body it is an
 * error (file:line:col, no output), not uncompilable output. */
#pragma pomp inst begin(everything)
int main(void) {
  return 0;
}
#pragma pomp inst end(everything)
// EXPECT-REWRITE-ERROR
