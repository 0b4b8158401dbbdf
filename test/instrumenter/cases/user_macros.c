#include <stdio.h>
#include <pomp2/pomp2_user.h>
int main(void) {
  POMP_USER_REGION_BEGIN("setup");
  int x = 1;
  POMP_USER_REGION_END("setup");
  printf("%d\n", x);
  return 0;
}
// STDOUT: 1
// T1: USER_Begin_named setup@4; USER_End_named setup@6
