// BOTS alignment: scores the optimal global alignment of every pair of a set
// of protein sequences, with a substitution matrix and affine gap penalties
// (Gotoh's algorithm in linear memory).  One thread creates one task per pair
// (the "single" version of BOTS).
#include <bench/kernel.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

constexpr int alphabet = 20; // amino acids
constexpr int gap_open = 10;
constexpr int gap_extend = 1;
using Substitution = std::array<std::array<int, alphabet>, alphabet>;
using Sequence = std::vector<std::uint8_t>;

Substitution generate_substitution(bench::Rng& rng) {
  Substitution s{};
  for (int a = 0; a < alphabet; ++a)
    for (int b = a; b < alphabet; ++b)
      s[a][b] = s[b][a] = a == b ? 4 + static_cast<int>(rng.below(8)) : -4 + static_cast<int>(rng.below(6));
  return s;
}

// Gotoh: best score of a global alignment of x and y where a gap of length k costs gap_open + k * gap_extend.
int align(const Sequence& x, const Sequence& y, const Substitution& s) {
  constexpr int minus_infinity = std::numeric_limits<int>::min() / 4;
  const std::size_t m = y.size();
  std::vector<int> h(m + 1), e(m + 1); // h: best score; e: best score ending with a gap in x
  h[0] = 0;
  for (std::size_t j = 1; j <= m; ++j) {
    h[j] = -gap_open - static_cast<int>(j) * gap_extend;
    e[j] = minus_infinity;
  }
  for (std::size_t i = 1; i <= x.size(); ++i) {
    int diagonal = h[0];
    h[0] = -gap_open - static_cast<int>(i) * gap_extend;
    int f = minus_infinity; // best score ending with a gap in y
    const auto& row = s[x[i - 1]];
    for (std::size_t j = 1; j <= m; ++j) {
      e[j] = std::max(e[j], h[j] - gap_open) - gap_extend;
      f = std::max(f, h[j - 1] - gap_open) - gap_extend;
      const int best = std::max({diagonal + row[y[j - 1]], e[j], f});
      diagonal = h[j];
      h[j] = best;
    }
  }
  return h[m];
}

std::size_t pair_index(std::size_t i, std::size_t j, std::size_t n) { return i * n + j; }

void align_all_tasks(const std::vector<Sequence>& sequences, const Substitution& s, std::vector<int>& scores) {
  const std::size_t n = sequences.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
#pragma omp task firstprivate(i, j) shared(sequences, s, scores)
      scores[pair_index(i, j, n)] = align(sequences[i], sequences[j], s);
    }
#pragma omp taskwait
}

bench::Outcome run(const bench::Options& options) {
  const std::size_t count = bench::pick<std::size_t>(options.size, 12, 40, 60);
  const std::size_t length = bench::pick<std::size_t>(options.size, 100, 200, 300);
  bench::Rng rng(7);
  const Substitution substitution = generate_substitution(rng);
  std::vector<Sequence> sequences(count);
  for (Sequence& sequence : sequences) {
    sequence.resize(length / 2 + rng.below(length)); // lengths vary as in real protein sets
    for (std::uint8_t& residue : sequence) residue = static_cast<std::uint8_t>(rng.below(alphabet));
  }
  std::vector<int> scores(count * count, 0);

  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    align_all_tasks(sequences, substitution, scores);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();

  // Recompute every fourth pair sequentially (all of them would double the run time).
  outcome.verified = true;
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t j = i + 1; j < count; ++j) {
      sum += scores[pair_index(i, j, count)];
      if ((i + j) % 4 == 0 && scores[pair_index(i, j, count)] != align(sequences[i], sequences[j], substitution))
        outcome.verified = false;
    }
  outcome.checksum = std::to_string(sum);
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "alignment",
      .summary = "BOTS alignment: affine-gap global alignment scores of all sequence pairs, one task per pair; "
                 "verified by recomputing a quarter of the pairs sequentially.",
      .variants = {"default"},
      .sizes_help = "sequences x mean length = 12x100|40x200|60x300",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
