// Shared pieces of the NPB kernels: the NPB random number generator, a
// wall-clock timer, the command line (--class / --size) and the RESULT line
// that the benchmark harness parses.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <fmt/core.h>
#include <omp.h>

namespace npb {

// ---------------------------------------------------------------------------
// Random numbers: x_{k+1} = a * x_k mod 2^46, returned as x_{k+1} * 2^-46.
//
// NPB's randlc/vranlc do this in double precision by splitting operands into
// 23-bit halves; the result is exact, so exact 64-bit integer arithmetic gives
// bit-identical numbers. The product is taken modulo 2^64 (unsigned wrap-around)
// and then masked: 2^46 divides 2^64, so the low 46 bits are those of the full
// 92-bit product.
// ---------------------------------------------------------------------------
inline constexpr std::uint64_t kModulusMask = (std::uint64_t{1} << 46) - 1;
inline constexpr double kTwoToMinus46 = 0x1p-46;
// 5^13, the multiplier of every NPB kernel.
inline constexpr std::uint64_t kMultiplier = 1220703125;

constexpr std::uint64_t mulmod46(std::uint64_t a, std::uint64_t b) {
  return (a * b) & kModulusMask;
}

// a^n mod 2^46 by repeated squaring (NPB's ipow46 / power).
constexpr std::uint64_t powmod46(std::uint64_t a, std::uint64_t n) {
  std::uint64_t result = 1;
  while (n != 0) {
    if (n & 1) result = mulmod46(result, a);
    a = mulmod46(a, a);
    n >>= 1;
  }
  return result;
}

class Randlc {
 public:
  explicit constexpr Randlc(std::uint64_t seed, std::uint64_t multiplier = kMultiplier)
      : state_(seed & kModulusMask), multiplier_(multiplier & kModulusMask) {}

  // randlc: advance once and return the new state scaled into (0, 1).
  constexpr double next() {
    state_ = mulmod46(state_, multiplier_);
    return static_cast<double>(state_) * kTwoToMinus46;
  }

  // vranlc: the next out.size() numbers of the stream.
  constexpr void fill(std::span<double> out) {
    for (double& value : out) value = next();
  }

  // Jump over n numbers of the stream without generating them.
  constexpr void skip(std::uint64_t n) { state_ = mulmod46(state_, powmod46(multiplier_, n)); }

  constexpr std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_;
  std::uint64_t multiplier_;
};

// ---------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------
class Stopwatch {
 public:
  void start() { begin_ = Clock::now(); }
  void stop() { elapsed_ += Clock::now() - begin_; }
  double seconds() const { return std::chrono::duration<double>(elapsed_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point begin_{};
  Clock::duration elapsed_{};
};

// ---------------------------------------------------------------------------
// Command line and result reporting (the kernel protocol of docs/benchmarks.md)
// ---------------------------------------------------------------------------

// Which NPB class each harness size runs, per kernel.
struct SizeClasses {
  char smoke;  // CI smoke test: well under a second
  char small;
  char bench;  // timing runs: 0.5-5 s at one thread on this machine
};

struct RunConfig {
  char problem_class;
  std::string size;  // "smoke", "small", "bench" or "custom"
};

inline bool relative_error_within(double value, double reference, double epsilon) {
  return std::abs(value - reference) <= epsilon * std::abs(reference);
}

namespace detail {
[[noreturn]] inline void usage_error(std::string_view kernel, std::string_view message) {
  fmt::print(stderr, "npb_{}: {}\nTry 'npb_{} --help'.\n", kernel, message, kernel);
  std::exit(2);
}
}  // namespace detail

// Parses --class / --size / --help. `classes` lists the classes this kernel
// knows (e.g. "SWA"), `sizes` maps the harness size names onto them.
inline RunConfig parse_command_line(int argc, char** argv, std::string_view kernel,
                                    std::string_view description, std::string_view classes,
                                    SizeClasses sizes) {
  std::optional<char> requested_class;
  std::optional<std::string> requested_size;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) detail::usage_error(kernel, fmt::format("option '{}' needs a value", arg));
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      fmt::print(
          "Usage: npb_{0} [--class C | --size S]\n\n"
          "{1}\n\n"
          "Options:\n"
          "  --class C   NPB problem class, one of: {2}\n"
          "  --size S    harness size: smoke (class {3}), small (class {4}), bench (class {5});\n"
          "              default: small\n"
          "  --help      show this text\n\n"
          "Threads: set OMP_NUM_THREADS. The last output line is\n"
          "  RESULT kernel=... variant=class-C size=... threads=N time_s=T verified=0|1 "
          "checksum=X\n"
          "and the exit status is 1 when verification against the official NPB values "
          "fails.\n",
          kernel, description, classes, sizes.smoke, sizes.small, sizes.bench);
      std::exit(0);
    } else if (arg == "--class") {
      const std::string_view c = value();
      if (c.size() != 1 || classes.find(c[0]) == std::string_view::npos)
        detail::usage_error(kernel, fmt::format("unknown class '{}' (known: {})", c, classes));
      requested_class = c[0];
    } else if (arg == "--size") {
      requested_size = std::string(value());
    } else {
      detail::usage_error(kernel, fmt::format("unknown argument '{}'", arg));
    }
  }
  if (requested_class && requested_size)
    detail::usage_error(kernel, "give either --class or --size, not both");

  if (requested_class) {
    const char c = *requested_class;
    const char* size = c == sizes.smoke ? "smoke" : c == sizes.small ? "small"
                     : c == sizes.bench ? "bench" : "custom";
    return {c, size};
  }
  const std::string size = requested_size.value_or("small");
  if (size == "smoke") return {sizes.smoke, size};
  if (size == "small") return {sizes.small, size};
  if (size == "bench") return {sizes.bench, size};
  detail::usage_error(kernel, fmt::format("unknown size '{}' (known: smoke, small, bench)", size));
}

// Prints the one line the harness reads and returns the process exit status.
// The checksum is printed with 10 significant digits: enough to catch a wrong
// result, few enough that builds differing only in the order of a parallel
// reduction still print the same value.
inline int report(std::string_view kernel, const RunConfig& config, double seconds, bool verified,
                  double checksum) {
  fmt::print("RESULT kernel={} variant=class-{} size={} threads={} time_s={:.6f} verified={} "
             "checksum={:.9e}\n",
             kernel, config.problem_class, config.size, omp_get_max_threads(), seconds,
             verified ? 1 : 0, checksum);
  std::fflush(stdout);
  return verified ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace npb
