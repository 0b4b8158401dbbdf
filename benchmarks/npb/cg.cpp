// NPB CG: estimate the smallest eigenvalue of a large sparse symmetric
// positive definite matrix with the inverse power method; every outer
// iteration solves A z = x with 25 unpreconditioned conjugate-gradient steps.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/npb.hpp"

namespace {

struct ClassParameters {
  char name;
  int rows;            // NA
  int nonzeros_per_row;  // NONZER
  int iterations;      // NITER
  double shift;        // SHIFT
  double zeta_reference;  // CG verify value, epsilon 1e-10
};

constexpr std::array kClasses = {
    ClassParameters{'S', 1400, 7, 15, 10.0, 8.5971775078648},
    ClassParameters{'W', 7000, 8, 15, 12.0, 10.362595087124},
    ClassParameters{'A', 14000, 11, 15, 20.0, 17.130235054029},
};

constexpr double kConditionNumber = 0.1;  // RCOND
constexpr int kCgSteps = 25;
constexpr double kEpsilon = 1.0e-10;
constexpr std::uint64_t kSeed = 314159265;

// Compressed sparse rows.
struct SparseMatrix {
  std::vector<int> row_start;
  std::vector<int> column;
  std::vector<double> value;
  int rows() const { return static_cast<int>(row_start.size()) - 1; }
};

// A sparse vector with `count` random nonzeros at distinct positions 0..n-1
// (NPB's sprnvc): values and positions come in pairs from the stream, and
// positions are drawn in [0, 2^k) and rejected when >= n or repeated.
struct SparseEntry {
  int index;
  double value;
};

std::vector<SparseEntry> random_sparse_vector(int n, int count, npb::Randlc& rng) {
  int power_of_two = 1;
  while (power_of_two < n) power_of_two *= 2;
  std::vector<SparseEntry> entries;
  while (static_cast<int>(entries.size()) < count) {
    const double value = rng.next();
    const int index = static_cast<int>(power_of_two * rng.next());
    if (index >= n) continue;
    if (std::any_of(entries.begin(), entries.end(),
                    [&](const SparseEntry& e) { return e.index == index; }))
      continue;
    entries.push_back({index, value});
  }
  return entries;
}

// NPB's makea/sparse: A = sum_i size_i * v_i v_i^T + (rcond - shift) I, where
// v_i has NONZER random entries plus 0.5 on position i and size_i decays
// geometrically from 1 to rcond. Entries that coincide are summed in the order
// the outer products are generated, as the reference does.
SparseMatrix make_matrix(const ClassParameters& p) {
  const int n = p.rows;
  npb::Randlc rng(kSeed);
  rng.next();  // the reference draws one number before generating the matrix

  struct Triple {
    int row;
    int col;
    double value;
  };
  std::vector<Triple> triples;
  triples.reserve(static_cast<std::size_t>(n) * (p.nonzeros_per_row + 1) *
                  (p.nonzeros_per_row + 1));

  const double ratio = std::pow(kConditionNumber, 1.0 / n);
  double size = 1.0;
  for (int outer = 0; outer < n; ++outer) {
    std::vector<SparseEntry> v = random_sparse_vector(n, p.nonzeros_per_row, rng);
    auto diagonal = std::find_if(v.begin(), v.end(),
                                 [&](const SparseEntry& e) { return e.index == outer; });
    if (diagonal != v.end())
      diagonal->value = 0.5;
    else
      v.push_back({outer, 0.5});

    for (const SparseEntry& row_entry : v) {
      const double scale = size * row_entry.value;
      for (const SparseEntry& col_entry : v) {
        double value = col_entry.value * scale;
        if (col_entry.index == row_entry.index && row_entry.index == outer)
          value += kConditionNumber - p.shift;
        triples.push_back({row_entry.index, col_entry.index, value});
      }
    }
    size *= ratio;
  }

  // Stable: duplicates keep their generation order, so they are summed as in
  // the reference.
  std::stable_sort(triples.begin(), triples.end(), [](const Triple& a, const Triple& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });

  SparseMatrix a;
  a.row_start.assign(n + 1, 0);
  for (std::size_t k = 0; k < triples.size();) {
    const Triple& first = triples[k];
    double sum = 0.0;
    for (; k < triples.size() && triples[k].row == first.row && triples[k].col == first.col; ++k)
      sum += triples[k].value;
    a.column.push_back(first.col);
    a.value.push_back(sum);
    ++a.row_start[first.row + 1];
  }
  for (int row = 0; row < n; ++row) a.row_start[row + 1] += a.row_start[row];
  return a;
}

struct CgVectors {
  explicit CgVectors(int n) : x(n, 1.0), z(n), p(n), q(n), r(n) {}
  std::vector<double> x, z, p, q, r;
};

// out = A in. A worksharing loop without its own parallel region: it binds
// to the region of the caller.
void multiply(const SparseMatrix& a, const double* in, double* out) {
  const int n = a.rows();
  const int* row_start = a.row_start.data();
  const int* column = a.column.data();
  const double* value = a.value.data();
#pragma omp for
  for (int j = 0; j < n; ++j) {
    double sum = 0.0;
    for (int k = row_start[j]; k < row_start[j + 1]; ++k) sum += value[k] * in[column[k]];
    out[j] = sum;
  }
}

// Runs 25 CG steps on A z = x from z = 0 and returns ||x - A z||.
double conjugate_gradient(const SparseMatrix& a, CgVectors& v) {
  const int n = a.rows();
  double* x = v.x.data();
  double* z = v.z.data();
  double* p = v.p.data();
  double* q = v.q.data();
  double* r = v.r.data();

  double rho = 0.0;
  double rho0 = 0.0;
  double pq = 0.0;
  double residual_sum = 0.0;

#pragma omp parallel
  {
#pragma omp for
    for (int j = 0; j < n; ++j) {
      q[j] = 0.0;
      z[j] = 0.0;
      r[j] = x[j];
      p[j] = r[j];
    }

#pragma omp for reduction(+ : rho)
    for (int j = 0; j < n; ++j) rho += r[j] * r[j];

    for (int step = 0; step < kCgSteps; ++step) {
#pragma omp master
      {
        rho0 = rho;
        pq = 0.0;
        rho = 0.0;
      }
#pragma omp barrier

      multiply(a, p, q);

#pragma omp for reduction(+ : pq)
      for (int j = 0; j < n; ++j) pq += p[j] * q[j];

      const double alpha = rho0 / pq;
#pragma omp for reduction(+ : rho)
      for (int j = 0; j < n; ++j) {
        z[j] += alpha * p[j];
        r[j] -= alpha * q[j];
        rho += r[j] * r[j];
      }

      const double beta = rho / rho0;
#pragma omp for
      for (int j = 0; j < n; ++j) p[j] = r[j] + beta * p[j];
    }

    // r = A z, then the residual norm ||x - A z||
    multiply(a, z, r);

#pragma omp for reduction(+ : residual_sum)
    for (int j = 0; j < n; ++j) {
      const double d = x[j] - r[j];
      residual_sum += d * d;
    }
  }
  return std::sqrt(residual_sum);
}

struct PowerStep {
  double zeta;
  double residual_norm;  // of the CG solve
};

// One inverse power step: solve A z = x, then zeta = shift + 1 / (x . z) and
// x = z / ||z||.
PowerStep power_step(const SparseMatrix& a, CgVectors& v, double shift) {
  const double residual_norm = conjugate_gradient(a, v);
  const int n = a.rows();
  double xz = 0.0;
  double zz = 0.0;
#pragma omp parallel for reduction(+ : xz, zz)
  for (int j = 0; j < n; ++j) {
    xz += v.x[j] * v.z[j];
    zz += v.z[j] * v.z[j];
  }
  const double inverse_norm = 1.0 / std::sqrt(zz);
#pragma omp parallel for
  for (int j = 0; j < n; ++j) v.x[j] = inverse_norm * v.z[j];
  return {shift + 1.0 / xz, residual_norm};
}

}  // namespace

int main(int argc, char** argv) {
  const npb::RunConfig config = npb::parse_command_line(
      argc, argv, "cg",
      "NPB CG: inverse power method with conjugate-gradient solves.",
      npb::class_names(kClasses));
  const ClassParameters& params = npb::parameters_of_class(kClasses, config.problem_class);

  const SparseMatrix a = make_matrix(params);
  CgVectors vectors(params.rows);

  // One untimed step touches all data and code, then start over (as NPB does).
  power_step(a, vectors, params.shift);
  std::fill(vectors.x.begin(), vectors.x.end(), 1.0);

  const bench::Stopwatch stopwatch;
  PowerStep step{};
  for (int it = 0; it < params.iterations; ++it) step = power_step(a, vectors, params.shift);
  const double seconds = stopwatch.elapsed_s();

  const bool verified = npb::relative_error_within(step.zeta, params.zeta_reference, kEpsilon);
  fmt::print("NPB CG class {}: {} rows, {} nonzeros, {} iterations\n", params.name, params.rows,
             a.value.size(), params.iterations);
  fmt::print(" zeta = {:.13e} (reference {:.13e}), last CG residual {:.6e}\n", step.zeta,
             params.zeta_reference, step.residual_norm);
  return npb::report("cg", config, seconds, verified, step.zeta);
}
