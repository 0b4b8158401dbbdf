// NPB EP ("embarrassingly parallel"): generate 2^(M+1) uniform random numbers,
// turn pairs into Gaussian deviates with the Marsaglia polar method, and
// tally their sums and the counts in concentric square annuli.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/npb.hpp"

namespace {

struct ClassParameters {
  char name;
  int log2_pairs;  // M
  // NPB 3.3 reference sums of the deviates (EP verify routine, epsilon 1e-8).
  double sx_reference;
  double sy_reference;
  // Number of accepted pairs, verified since NPB 3.4 (exact).
  double pairs_reference;
};

constexpr std::array kClasses = {
    ClassParameters{'S', 24, -3.247834652034740e+3, -6.958407078382297e+3, 13176389.0},
    ClassParameters{'W', 25, -2.863319731645753e+3, -6.320053679109499e+3, 26354769.0},
    ClassParameters{'A', 28, -4.295875165629892e+3, -1.580732573678431e+4, 210832767.0},
};

constexpr int kLog2BatchSize = 16;  // MK: pairs per batch, does not affect results
constexpr int kBatchPairs = 1 << kLog2BatchSize;
constexpr int kAnnuli = 10;  // NQ
constexpr std::uint64_t kSeed = 271828183;
constexpr double kEpsilon = 1.0e-8;

struct Tally {
  double sx = 0.0;
  double sy = 0.0;
  std::array<double, kAnnuli> counts{};
};

Tally run_ep(int log2_pairs) {
  const std::int64_t batches = std::int64_t{1} << (log2_pairs - kLog2BatchSize);
  Tally total;
  double sx = 0.0;
  double sy = 0.0;

#pragma omp parallel
  {
    std::vector<double> uniforms(2 * kBatchPairs);
    std::array<double, kAnnuli> local_counts{};

#pragma omp for reduction(+ : sx, sy)
    for (std::int64_t batch = 0; batch < batches; ++batch) {
      // Every batch is an independent slice of one stream, so any thread can
      // start it by jumping ahead.
      npb::Randlc rng(kSeed);
      rng.skip(static_cast<std::uint64_t>(batch) * 2 * kBatchPairs);
      rng.fill(uniforms);

      for (int i = 0; i < kBatchPairs; ++i) {
        const double x1 = 2.0 * uniforms[2 * i] - 1.0;
        const double x2 = 2.0 * uniforms[2 * i + 1] - 1.0;
        const double t1 = x1 * x1 + x2 * x2;
        if (t1 <= 1.0) {
          const double t2 = std::sqrt(-2.0 * std::log(t1) / t1);
          const double t3 = x1 * t2;
          const double t4 = x2 * t2;
          const int annulus = static_cast<int>(std::max(std::fabs(t3), std::fabs(t4)));
          local_counts[annulus] += 1.0;
          sx += t3;
          sy += t4;
        }
      }
    }

#pragma omp critical
    {
      for (int i = 0; i < kAnnuli; ++i) total.counts[i] += local_counts[i];
    }
  }
  total.sx = sx;
  total.sy = sy;
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const npb::RunConfig config = npb::parse_command_line(
      argc, argv, "ep",
      "NPB EP: Gaussian deviates from the NPB random number generator.",
      npb::class_names(kClasses));
  const ClassParameters& params = npb::parameters_of_class(kClasses, config.problem_class);

  const bench::Stopwatch stopwatch;
  const Tally tally = run_ep(params.log2_pairs);
  const double seconds = stopwatch.elapsed_s();

  double pairs = 0.0;
  for (double count : tally.counts) pairs += count;

  const bool verified = npb::relative_error_within(tally.sx, params.sx_reference, kEpsilon) &&
                        npb::relative_error_within(tally.sy, params.sy_reference, kEpsilon) &&
                        pairs == params.pairs_reference;

  fmt::print("NPB EP class {}: 2^{} random numbers, {} Gaussian pairs\n", params.name,
             params.log2_pairs + 1, pairs);
  fmt::print(" sums: sx = {:.15e} (reference {:.15e})\n", tally.sx, params.sx_reference);
  fmt::print("       sy = {:.15e} (reference {:.15e})\n", tally.sy, params.sy_reference);
  for (int i = 0; i < kAnnuli; ++i) fmt::print(" annulus {}: {}\n", i, tally.counts[i]);
  return npb::report("ep", config, seconds, verified, tally.sx);
}
