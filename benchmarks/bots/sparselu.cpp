// BOTS sparselu: LU factorisation (no pivoting) of a sparse matrix stored as
// nb x nb blocks of bs x bs doubles, where absent blocks are empty and are
// allocated on fill-in.  One thread creates the tasks (the "single" version
// of BOTS): per step kk, the diagonal block is factorised, then one task per
// non-empty block of row kk (fwd) and column kk (bdiv), then one task per
// block of the trailing sub-matrix that needs an update (bmod).
#include <bench/kernel.hpp>

#include <cmath>
#include <vector>

namespace {

using Block = std::vector<double>; // bs*bs values, row-major; empty = absent block

struct SparseMatrix {
  int nb = 0; // blocks per dimension
  int bs = 0; // values per block dimension
  std::vector<Block> blocks;
  Block& at(int ii, int jj) { return blocks[static_cast<std::size_t>(ii * nb + jj)]; }
};

// The BOTS sparsity pattern: a banded structure plus every third row and column.
bool block_present(int ii, int jj) {
  if (ii == jj || ii == jj - 1 || ii - 1 == jj) return true;
  if (ii % 2 == 1 || jj % 2 == 1) return false;
  if (ii < jj && ii % 3 != 0) return false;
  if (ii > jj && jj % 3 != 0) return false;
  return true;
}

SparseMatrix generate(int nb, int bs) {
  SparseMatrix m{nb, bs, std::vector<Block>(static_cast<std::size_t>(nb * nb))};
  bench::Rng rng(1325);
  for (int ii = 0; ii < nb; ++ii) {
    for (int jj = 0; jj < nb; ++jj) {
      if (!block_present(ii, jj)) continue;
      Block& block = m.at(ii, jj);
      block.resize(static_cast<std::size_t>(bs * bs));
      for (double& v : block) v = rng.uniform() * 2.0 - 1.0;
      // A dominant diagonal keeps the factorisation without pivoting stable.
      if (ii == jj)
        for (int i = 0; i < bs; ++i) block[static_cast<std::size_t>(i * bs + i)] += 2.0 * bs;
    }
  }
  return m;
}

void lu0(Block& diag, int bs) {
  for (int k = 0; k < bs; ++k)
    for (int i = k + 1; i < bs; ++i) {
      diag[i * bs + k] /= diag[k * bs + k];
      for (int j = k + 1; j < bs; ++j) diag[i * bs + j] -= diag[i * bs + k] * diag[k * bs + j];
    }
}

// row kk, right of the diagonal: col := L(diag)^-1 * col
void fwd(const Block& diag, Block& col, int bs) {
  for (int k = 0; k < bs; ++k)
    for (int i = k + 1; i < bs; ++i)
      for (int j = 0; j < bs; ++j) col[i * bs + j] -= diag[i * bs + k] * col[k * bs + j];
}

// column kk, below the diagonal: row := row * U(diag)^-1
void bdiv(const Block& diag, Block& row, int bs) {
  for (int i = 0; i < bs; ++i)
    for (int k = 0; k < bs; ++k) {
      row[i * bs + k] /= diag[k * bs + k];
      for (int j = k + 1; j < bs; ++j) row[i * bs + j] -= row[i * bs + k] * diag[k * bs + j];
    }
}

// inner -= row * col
void bmod(const Block& row, const Block& col, Block& inner, int bs) {
  if (inner.empty()) inner.assign(static_cast<std::size_t>(bs * bs), 0.0);
  for (int i = 0; i < bs; ++i)
    for (int k = 0; k < bs; ++k) {
      const double r = row[i * bs + k];
      for (int j = 0; j < bs; ++j) inner[i * bs + j] -= r * col[k * bs + j];
    }
}

void factorise_tasks(SparseMatrix& m) {
  const int nb = m.nb;
  const int bs = m.bs;
  for (int kk = 0; kk < nb; ++kk) {
    lu0(m.at(kk, kk), bs);
    for (int jj = kk + 1; jj < nb; ++jj)
      if (!m.at(kk, jj).empty()) {
#pragma omp task firstprivate(kk, jj) shared(m)
        fwd(m.at(kk, kk), m.at(kk, jj), bs);
      }
    for (int ii = kk + 1; ii < nb; ++ii)
      if (!m.at(ii, kk).empty()) {
#pragma omp task firstprivate(kk, ii) shared(m)
        bdiv(m.at(kk, kk), m.at(ii, kk), bs);
      }
#pragma omp taskwait
    for (int ii = kk + 1; ii < nb; ++ii)
      if (!m.at(ii, kk).empty())
        for (int jj = kk + 1; jj < nb; ++jj)
          if (!m.at(kk, jj).empty()) {
#pragma omp task firstprivate(kk, ii, jj) shared(m)
            bmod(m.at(ii, kk), m.at(kk, jj), m.at(ii, jj), bs);
          }
#pragma omp taskwait
  }
}

void factorise_sequential(SparseMatrix& m) {
  for (int kk = 0; kk < m.nb; ++kk) {
    lu0(m.at(kk, kk), m.bs);
    for (int jj = kk + 1; jj < m.nb; ++jj)
      if (!m.at(kk, jj).empty()) fwd(m.at(kk, kk), m.at(kk, jj), m.bs);
    for (int ii = kk + 1; ii < m.nb; ++ii)
      if (!m.at(ii, kk).empty()) bdiv(m.at(kk, kk), m.at(ii, kk), m.bs);
    for (int ii = kk + 1; ii < m.nb; ++ii)
      if (!m.at(ii, kk).empty())
        for (int jj = kk + 1; jj < m.nb; ++jj)
          if (!m.at(kk, jj).empty()) bmod(m.at(ii, kk), m.at(kk, jj), m.at(ii, jj), m.bs);
  }
}

bool same_factors(const SparseMatrix& a, const SparseMatrix& b) {
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    if (a.blocks[i].size() != b.blocks[i].size()) return false;
    for (std::size_t j = 0; j < a.blocks[i].size(); ++j) {
      const double x = a.blocks[i][j];
      const double y = b.blocks[i][j];
      if (!std::isfinite(x) || std::abs(x - y) > 1e-10 * std::max(1.0, std::abs(y))) return false;
    }
  }
  return true;
}

bench::Outcome run(const bench::Options& options) {
  const int nb = bench::pick(options.size, 12, 30, 50);
  const int bs = bench::pick(options.size, 16, 40, 64);
  SparseMatrix matrix = generate(nb, bs);
  SparseMatrix reference = matrix;

  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    factorise_tasks(matrix);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();

  factorise_sequential(reference);
  outcome.verified = same_factors(matrix, reference);
  double sum = 0.0;
  for (const Block& block : matrix.blocks)
    for (const double v : block) sum += v;
  outcome.checksum = bench::float_checksum(sum);
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "sparselu",
      .summary = "BOTS sparselu (single-creator version): blocked sparse LU factorisation; verified against "
                 "the sequential factorisation.",
      .variants = {"default"},
      .sizes_help = "blocks x block size = 12x16|30x40|50x64",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
