#include <stdio.h>
#define REGION_BEGIN(n) _Pragma(#n)
int main(void) {
  int x = 1;
  REGION_BEGIN(pomp inst begin(setup))
  x *= 2;
  _Pragma("pomp inst end(setup)")
#if 0
  #pragma pomp inst begin(never)
#endif
  #pragma pomp inst bogus
  printf("%d\n", x);
  return 0;
}
// EXPECT-WARNING: pomp_pragma_forms.c:11: warning: unknown '#pragma pomp' form
// STDOUT: 2
// T1: Begin userRegion@5; End userRegion@5
