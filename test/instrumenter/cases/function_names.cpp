// Regions are named after the function around them, qualified as Clang
// prints it: namespaces and classes, out-of-class definitions, operators,
// destructors; a lambda's region after the function that holds the lambda;
// no anonymous or inline namespace and no linkage block in the name.
#include <cstdio>
namespace physics {
struct Grid {
  int cells = 0;
  void step() {
    #pragma omp parallel
    {
      #pragma omp atomic
      cells++;
    }
  }
  int operator()(int n) const;
  ~Grid();
};
inline namespace v1 {
int count() {
  int n = 0;
  #pragma omp parallel reduction(+ : n)
  n += 1;
  return n;
}
} // namespace v1
} // namespace physics
int physics::Grid::operator()(int n) const {
  int s = 0;
  #pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) s += i;
  return s;
}
physics::Grid::~Grid() {
  #pragma omp parallel
  cells = 0;
}
namespace {
void helper() {
  #pragma omp barrier
}
} // namespace
extern "C" void c_entry() {
  #pragma omp parallel
  helper();
}
int main() {
  physics::Grid g;
  g.step();
  auto twice = [](int x) {
    int r = 0;
    #pragma omp parallel reduction(+ : r)
    r = x;
    return r > 0;
  };
  c_entry();
  std::printf("%d %d %d\n", g.cells > 0, g(4), physics::count() > 0 && twice(1));
  return 0;
}
// STDOUT: 1 6 1
// EXPECT-CTC: regionType=parallel\*sscl=[^*]*:10:10\*.*\*function=physics::Grid::step\*
// EXPECT-CTC: regionType=parallel\*sscl=[^*]*:22:22\*.*\*function=physics::count\*
// EXPECT-CTC: regionType=parallelfor\*.*\*function=physics::Grid::operator\(\)\*
// EXPECT-CTC: regionType=parallel\*sscl=[^*]*:35:35\*.*\*function=physics::Grid::~Grid\*
// EXPECT-CTC: regionType=barrier\*.*\*function=helper\*
// EXPECT-CTC: regionType=parallel\*sscl=[^*]*:44:44\*.*\*function=c_entry\*
// EXPECT-CTC: regionType=parallel\*sscl=[^*]*:52:52\*.*\*function=main\*
// T1.COUNT: Parallel_fork parallel@10 = 1
// T1.COUNT: Barrier_enter barrier@40 = 1
