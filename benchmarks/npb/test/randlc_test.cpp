// npb::Randlc must reproduce NPB's randlc bit for bit: every verification
// value of the kernels depends on it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "../common/npb.hpp"

namespace {

// NPB's randlc as published: double precision, operands split into 23-bit
// halves so that every partial product is exact.
double reference_randlc(double& x, double a) {
  const double r23 = 0x1p-23, r46 = 0x1p-46, t23 = 0x1p23, t46 = 0x1p46;
  const double a1 = static_cast<double>(static_cast<std::int64_t>(r23 * a));
  const double a2 = a - t23 * a1;
  const double x1 = static_cast<double>(static_cast<std::int64_t>(r23 * x));
  const double x2 = x - t23 * x1;
  const double t1 = a1 * x2 + a2 * x1;
  const double t2 = static_cast<double>(static_cast<std::int64_t>(r23 * t1));
  const double z = t1 - t23 * t2;
  const double t3 = t23 * z + a2 * x2;
  const double t4 = static_cast<double>(static_cast<std::int64_t>(r46 * t3));
  x = t3 - t46 * t4;
  return r46 * x;
}

}  // namespace

TEST_CASE("the first numbers of the CG/IS/MG/FT stream are the exact products") {
  npb::Randlc rng(314159265);
  CHECK(rng.next() == 55909509111989.0 * 0x1p-46);
  CHECK(rng.next() == 61155031930969.0 * 0x1p-46);
  CHECK(rng.next() == 45573031421645.0 * 0x1p-46);
}

TEST_CASE("Randlc equals the double-precision randlc over long streams") {
  for (const std::uint64_t seed : {314159265ULL, 271828183ULL, 1ULL, (1ULL << 46) - 1}) {
    for (const std::uint64_t multiplier : {npb::kMultiplier, npb::powmod46(npb::kMultiplier, 1 << 17)}) {
      npb::Randlc rng(seed, multiplier);
      double x = static_cast<double>(seed);
      for (int i = 0; i < 100000; ++i) {
        const double expected = reference_randlc(x, static_cast<double>(multiplier));
        const double actual = rng.next();
        if (actual != expected) FAIL("seed " << seed << " step " << i);
      }
      CHECK(static_cast<double>(rng.state()) == x);
    }
  }
}

TEST_CASE("skip(n) lands where n calls of next() do") {
  for (const std::uint64_t n : {0ULL, 1ULL, 2ULL, 1000ULL, 65537ULL}) {
    npb::Randlc stepped(271828183);
    for (std::uint64_t i = 0; i < n; ++i) stepped.next();
    npb::Randlc skipped(271828183);
    skipped.skip(n);
    CHECK(skipped.state() == stepped.state());
  }
}

TEST_CASE("fill is a sequence of next()") {
  npb::Randlc filled(314159265), stepped(314159265);
  std::vector<double> values(257);
  filled.fill(values);
  for (double value : values) CHECK(value == stepped.next());
}
