#include <stdio.h>
static int work(int n) {
  #pragma pomp inst begin(work)
  if (n < 0)
    return -1;
  #pragma pomp inst end(work)
  return n;
}
int main(void) {
  printf("%d\n", work(1));
  return 0;
}
// EXPECT-WARNING: user_region_early_exit.c:3: warning: user region 'work': a return/goto between begin and end .*altend\(work\)
// STDOUT: 1
// T1: Begin userRegion@3; End userRegion@3
// C-ONLY
