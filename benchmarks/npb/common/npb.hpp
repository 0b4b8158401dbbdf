// Shared pieces of the NPB kernels: the NPB random number generator and the
// NPB flavour of the kernel protocol (bench/kernel.hpp, docs/benchmarks.md),
// where the problem class follows from --size or is chosen with --class.
#pragma once

#include <bench/kernel.hpp>
#include <fmt/core.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

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
// Command line and result reporting
// ---------------------------------------------------------------------------

// The NPB class each harness size runs. On this machine class S takes well
// under a second and class A 0.5-5 s at one thread for every kernel.
struct SizeClasses {
  char smoke;
  char small;
  char bench;
};
inline constexpr SizeClasses kSizeClasses{.smoke = 'S', .small = 'W', .bench = 'A'};

struct RunConfig {
  char problem_class;
  std::string size;  // "smoke", "small", "bench", or "custom" for --class alone
};

inline bool relative_error_within(double value, double reference, double epsilon) {
  return std::abs(value - reference) <= epsilon * std::abs(reference);
}

// A kernel's classes are a table of parameter structs with a `char name`.
template <typename Table>
std::string class_names(const Table& table) {
  std::string names;
  for (const auto& params : table) names += params.name;
  return names;
}

template <typename Table>
const auto& parameters_of_class(const Table& table, char name) {
  for (const auto& params : table)
    if (params.name == name) return params;
  throw std::invalid_argument(fmt::format("no parameters for class {}", name));
}

// Parses the command line of an NPB kernel. `classes` lists the classes it
// knows (e.g. "SWA"); the harness sizes map onto kSizeClasses. The variant of
// an NPB kernel is its class: --variant class-C means --class C, and
// --list-variants names the class of --size (bench when no size is given:
// listing is for the timing harness). An explicit class wins over the class
// of --size.
inline RunConfig parse_command_line(int argc, char** argv, std::string_view kernel,
                                    std::string_view description, std::string_view classes) {
  const SizeClasses& sizes = kSizeClasses;
  const std::string program = fmt::format("npb_{}", kernel);
  std::optional<char> requested_class;
  std::optional<bench::Size> requested_size;
  bool list_variants = false;
  const auto parse_class = [&](std::string_view text) {
    if (text.size() != 1 || classes.find(text[0]) == std::string_view::npos)
      bench::detail::usage_error(program,
                                 fmt::format("unknown class '{}' (known: {})", text, classes));
    requested_class = text[0];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) bench::detail::usage_error(program, fmt::format("option {} needs a value", arg));
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      fmt::print(
          "Usage: {0} [--size smoke|small|bench] [--class C] [--variant class-C] [--list-variants]\n"
          "       [--help]\n\n"
          "{1}\n\n"
          "Options:\n"
          "  --size S          input size: smoke = class {3}, small = class {4} (default),\n"
          "                    bench = class {5}\n"
          "  --class C         NPB problem class, one of {2}; overrides the class of --size\n"
          "  --variant class-C the same as --class C (the harness's name for it)\n"
          "  --list-variants   print the variant of --size (default: bench, class-{5}) and exit\n"
          "  --help            print this help and exit\n\n"
          "Threads come from OMP_NUM_THREADS. The last line printed is\n"
          "  RESULT kernel={6} variant=class-C size=<s> threads=<n> time_s=<t> verified=<1|0> "
          "checksum=<c>\n"
          "and the exit status is 1 if the result does not match the official NPB\n"
          "verification values (2 for bad usage).\n",
          program, description, classes, sizes.smoke, sizes.small, sizes.bench, kernel);
      std::exit(0);
    } else if (arg == "--list-variants") {
      list_variants = true;
    } else if (arg == "--class") {
      parse_class(value());
    } else if (arg == "--variant") {
      const std::string_view variant = value();
      if (!variant.starts_with("class-"))
        bench::detail::usage_error(
            program, fmt::format("unknown variant '{}' (NPB variants are class-C)", variant));
      parse_class(variant.substr(6));
    } else if (arg == "--size") {
      requested_size = bench::detail::parse_size(program, value());
    } else {
      bench::detail::usage_error(program, fmt::format("unknown argument '{}'", arg));
    }
  }

  if (list_variants) {
    // Listing is for the timing harness, hence bench by default.
    const bench::Size size = requested_size.value_or(bench::Size::bench);
    fmt::print("class-{}\n", bench::pick(size, sizes.smoke, sizes.small, sizes.bench));
    std::exit(0);
  }

  const bench::Size size = requested_size.value_or(bench::Size::small);
  const char size_class = bench::pick(size, sizes.smoke, sizes.small, sizes.bench);
  if (!requested_class || requested_size)
    return {requested_class.value_or(size_class), std::string(bench::to_string(size))};
  const char c = *requested_class;
  const char* label = c == sizes.smoke   ? "smoke"
                      : c == sizes.small ? "small"
                      : c == sizes.bench ? "bench"
                                         : "custom";
  return {c, label};
}

// Prints the verdict and the one line the harness reads; returns the process
// exit status.
inline int report(std::string_view kernel, const RunConfig& config, double seconds, bool verified,
                  double checksum) {
  fmt::print(" verification {}\n", verified ? "SUCCESSFUL" : "FAILED");
  fmt::print("RESULT kernel={} variant=class-{} size={} threads={} time_s={:.6f} verified={} "
             "checksum={}\n",
             kernel, config.problem_class, config.size, omp_get_max_threads(), seconds,
             verified ? 1 : 0, bench::float_checksum(checksum));
  std::fflush(stdout);
  return verified ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace npb
