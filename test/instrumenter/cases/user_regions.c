#include <stdio.h>
static int work(int n) {
  #pragma pomp inst begin(work)
  if (n < 0) {
    #pragma pomp inst altend(work)
    return -1;
  }
  n *= 2;
  #pragma pomp inst end(work)
  return n;
}
int main(void) {
  #pragma pomp inst init
  int r = work(2) + work(-1);
  #pragma pomp inst off
  #pragma pomp inst on
  printf("%d\n", r);
  #pragma pomp inst finalize
  return 0;
}
// STDOUT: 3
// T1: Init -; Begin userRegion@3; End userRegion@3; Begin userRegion@3; End userRegion@3; Off -; On -; Finalize -
