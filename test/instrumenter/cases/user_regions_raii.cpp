#include <cstdio>
#include <stdexcept>
static int work(int n) {
  #pragma pomp inst begin(work)
  if (n < 0)
    return -1;
  if (n == 0)
    throw std::runtime_error("zero");
  for (int i = 0; i < 3; ++i) {
    if (i == n)
      break;
  }
  #pragma pomp inst end(work)
  return n;
}
int main() {
  int r = work(1) + work(-1);
  try {
    r += work(0);
  } catch (const std::exception &) {
    r += 10;
  }
  std::printf("%d\n", r);
  return 0;
}
// STDOUT: 10
// T1: Begin userRegion@4; End userRegion@4; Begin userRegion@4; End userRegion@4; Begin userRegion@4; End userRegion@4
