// BOTS strassen: dense matrix multiplication C = A * B with Strassen's
// algorithm.  Each level splits the matrices into quadrants and computes the
// seven Strassen products in seven tasks; below a fixed size the classic
// triple loop is used.  The cut-off variant creates tasks only in the top
// levels of the recursion.
#include <bench/kernel.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

namespace {

constexpr std::size_t classic_cutoff = 64; // at or below: classic multiplication
constexpr int cutoff_depth = 3;

// A square sub-matrix of a row-major array.
struct View {
  double* data;
  std::size_t stride;
  double& operator()(std::size_t i, std::size_t j) const { return data[i * stride + j]; }
  View quadrant(std::size_t half, int row, int column) const {
    return {data + static_cast<std::size_t>(row) * half * stride + static_cast<std::size_t>(column) * half, stride};
  }
};

// An owned n x n matrix.
struct Matrix {
  std::size_t n;
  std::vector<double> values;
  explicit Matrix(std::size_t size) : n(size), values(size * size) {}
  View view() { return {values.data(), n}; }
};

void multiply_classic(View a, View b, View c, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) c(i, j) = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      const double aik = a(i, k);
      for (std::size_t j = 0; j < n; ++j) c(i, j) += aik * b(k, j);
    }
  }
}

// out = x + sign * y (sign is +1 or -1)
void combine(View x, View y, double sign, View out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) out(i, j) = x(i, j) + sign * y(i, j);
}

void copy(View from, View to, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) to(i, j) = from(i, j);
}

void multiply_strassen(View a, View b, View c, std::size_t n, int depth, bool cutoff);

// One Strassen product: product = (x1 + sx * x2) * (y1 + sy * y2), where a
// missing second operand (x2 or y2 with sign 0) means the first one alone.
void strassen_product(View x1, View x2, double sx, View y1, View y2, double sy, View product, std::size_t half,
                      int depth, bool cutoff) {
  Matrix left(half);
  Matrix right(half);
  if (sx != 0.0) combine(x1, x2, sx, left.view(), half);
  else copy(x1, left.view(), half);
  if (sy != 0.0) combine(y1, y2, sy, right.view(), half);
  else copy(y1, right.view(), half);
  multiply_strassen(left.view(), right.view(), product, half, depth + 1, cutoff);
}

void multiply_strassen(View a, View b, View c, std::size_t n, int depth, bool cutoff) {
  if (n <= classic_cutoff) {
    multiply_classic(a, b, c, n);
    return;
  }
  const std::size_t half = n / 2;
  const View a11 = a.quadrant(half, 0, 0), a12 = a.quadrant(half, 0, 1);
  const View a21 = a.quadrant(half, 1, 0), a22 = a.quadrant(half, 1, 1);
  const View b11 = b.quadrant(half, 0, 0), b12 = b.quadrant(half, 0, 1);
  const View b21 = b.quadrant(half, 1, 0), b22 = b.quadrant(half, 1, 1);
  std::vector<Matrix> m(7, Matrix(half));
  View m1 = m[0].view(), m2 = m[1].view(), m3 = m[2].view(), m4 = m[3].view();
  View m5 = m[4].view(), m6 = m[5].view(), m7 = m[6].view();

  if (cutoff && depth >= cutoff_depth) {
    strassen_product(a11, a22, 1, b11, b22, 1, m1, half, depth, cutoff);
    strassen_product(a21, a22, 1, b11, b11, 0, m2, half, depth, cutoff);
    strassen_product(a11, a11, 0, b12, b22, -1, m3, half, depth, cutoff);
    strassen_product(a22, a22, 0, b21, b11, -1, m4, half, depth, cutoff);
    strassen_product(a11, a12, 1, b22, b22, 0, m5, half, depth, cutoff);
    strassen_product(a21, a11, -1, b11, b12, 1, m6, half, depth, cutoff);
    strassen_product(a12, a22, -1, b21, b22, 1, m7, half, depth, cutoff);
  } else {
#pragma omp task firstprivate(m1)
    strassen_product(a11, a22, 1, b11, b22, 1, m1, half, depth, cutoff);
#pragma omp task firstprivate(m2)
    strassen_product(a21, a22, 1, b11, b11, 0, m2, half, depth, cutoff);
#pragma omp task firstprivate(m3)
    strassen_product(a11, a11, 0, b12, b22, -1, m3, half, depth, cutoff);
#pragma omp task firstprivate(m4)
    strassen_product(a22, a22, 0, b21, b11, -1, m4, half, depth, cutoff);
#pragma omp task firstprivate(m5)
    strassen_product(a11, a12, 1, b22, b22, 0, m5, half, depth, cutoff);
#pragma omp task firstprivate(m6)
    strassen_product(a21, a11, -1, b11, b12, 1, m6, half, depth, cutoff);
#pragma omp task firstprivate(m7)
    strassen_product(a12, a22, -1, b21, b22, 1, m7, half, depth, cutoff);
#pragma omp taskwait
  }

  const View c11 = c.quadrant(half, 0, 0), c12 = c.quadrant(half, 0, 1);
  const View c21 = c.quadrant(half, 1, 0), c22 = c.quadrant(half, 1, 1);
  for (std::size_t i = 0; i < half; ++i)
    for (std::size_t j = 0; j < half; ++j) {
      c11(i, j) = m1(i, j) + m4(i, j) - m5(i, j) + m7(i, j);
      c12(i, j) = m3(i, j) + m5(i, j);
      c21(i, j) = m2(i, j) + m4(i, j);
      c22(i, j) = m1(i, j) - m2(i, j) + m3(i, j) + m6(i, j);
    }
}

std::vector<double> times_vector(Matrix& m, const std::vector<double>& x) {
  std::vector<double> y(m.n, 0.0);
  for (std::size_t i = 0; i < m.n; ++i)
    for (std::size_t j = 0; j < m.n; ++j) y[i] += m.values[i * m.n + j] * x[j];
  return y;
}

// Freivalds' check: C r == A (B r) for a random vector r, in O(n^2).
bool product_is_correct(Matrix& a, Matrix& b, Matrix& c) {
  bench::Rng rng(99);
  std::vector<double> r(a.n);
  for (double& v : r) v = rng.uniform();
  const std::vector<double> expected = times_vector(a, times_vector(b, r));
  const std::vector<double> actual = times_vector(c, r);
  for (std::size_t i = 0; i < a.n; ++i)
    if (!(std::abs(expected[i] - actual[i]) <= 1e-9 * (1.0 + std::abs(expected[i])))) return false;
  return true;
}

bench::Outcome run(const bench::Options& options) {
  const bool cutoff = options.variant == "cutoff";
  const std::size_t n = bench::pick<std::size_t>(options.size, 256, 512, 1536);
  Matrix a(n), b(n), c(n);
  bench::Rng rng(4242);
  for (double& v : a.values) v = rng.uniform() * 2.0 - 1.0;
  for (double& v : b.values) v = rng.uniform() * 2.0 - 1.0;

  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    multiply_strassen(a.view(), b.view(), c.view(), n, 0, cutoff);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();
  outcome.verified = product_is_correct(a, b, c);
  double sum = 0.0;
  for (const double v : c.values) sum += v;
  outcome.checksum = bench::float_checksum(sum);
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "strassen",
      .summary = "BOTS strassen: Strassen matrix multiplication, seven product tasks per level; verified with "
                 "Freivalds' check.",
      .variants = {"cutoff", "nocutoff"},
      .sizes_help = "n = 256|512|1536 (classic multiplication at n <= 64; cutoff: tasks to depth 3)",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
