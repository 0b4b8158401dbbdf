// The kernel protocol shared by every benchmark executable (bots_*, npb_*):
// command line, timing and the single RESULT line the overhead harness parses.
// docs/benchmarks.md describes the protocol for users.
//
// A kernel describes itself with a KernelSpec and hands run_kernel() a function
// that performs one run (set-up, timed part, verification) and returns an
// Outcome.  Everything else (argument parsing, --help, the RESULT line, the
// exit status) lives here so that no kernel repeats it.
#pragma once

#include <fmt/core.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

// smoke: well under 0.2 s, for CI.  small: a quick interactive run.
// bench: 0.5-5 s at one thread, what the overhead harness times.
enum class Size { smoke, small, bench };

inline std::string_view to_string(Size size) {
  switch (size) {
  case Size::smoke: return "smoke";
  case Size::small: return "small";
  case Size::bench: return "bench";
  }
  return "?";
}

// Picks the parameter that belongs to a size: pick(size, smoke, small, bench).
template <typename T> T pick(Size size, T smoke, T small, T bench) {
  switch (size) {
  case Size::smoke: return smoke;
  case Size::small: return small;
  case Size::bench: return bench;
  }
  return bench;
}

// Kernels without task variants declare the single variant "default".
struct KernelSpec {
  std::string_view name;                 // "fib" -> executable bots_fib
  std::string_view summary;              // one line for --help
  std::vector<std::string_view> variants; // the first one is the default
  std::string_view sizes_help;           // what smoke/small/bench mean for this kernel
};

struct Options {
  Size size = Size::small;
  std::string variant;
  int threads = 1;
};

struct Outcome {
  double time_s = 0.0;  // the timed (parallel) part only
  bool verified = false;
  std::string checksum; // identical for plain and instrumented builds
};

// Wall-clock timer of the part the RESULT line reports.
class Stopwatch {
public:
  Stopwatch() : start_(omp_get_wtime()) {}
  double elapsed_s() const { return omp_get_wtime() - start_; }

private:
  double start_;
};

// Small, fast, deterministic generator for inputs (splitmix64): every kernel
// generates its input from a fixed seed, so runs are reproducible everywhere.
class Rng {
public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, bound).
  std::uint64_t below(std::uint64_t bound) { return next() % bound; }

private:
  std::uint64_t state_;
};

// Floating-point checksums are printed with 10 significant digits: the kernels
// compute them in a schedule-independent order, and the rounding keeps them
// identical even if the instrumented build's code generation differs slightly.
inline std::string float_checksum(double value) { return fmt::format("{:.9e}", value); }

namespace detail {

inline void print_help(const KernelSpec& spec, std::string_view program) {
  std::string variants;
  for (auto v : spec.variants) variants += fmt::format("{}{}", variants.empty() ? "" : "|", v);
  fmt::print(
      "Usage: {} [--size smoke|small|bench] [--variant {}] [--list-variants] [--help]\n\n"
      "{}\n\n"
      "Options:\n"
      "  --size S         input size (default: small)\n"
      "                   {}\n"
      "  --variant V      task variant (default: {})\n"
      "  --list-variants  print the supported variants, one per line, and exit\n"
      "  --help           print this help and exit\n\n"
      "Threads come from OMP_NUM_THREADS.  The last line printed is\n"
      "  RESULT kernel=<name> variant=<v> size=<s> threads=<n> time_s=<t> verified=<1|0> checksum=<c>\n"
      "and the exit status is non-zero if verification fails (2 for bad usage).\n",
      program, variants, spec.summary, spec.sizes_help, spec.variants.front());
}

[[noreturn]] inline void usage_error(std::string_view program, std::string_view message) {
  fmt::print(stderr, "{}: {}\nTry '{} --help'.\n", program, message, program);
  std::exit(2);
}

inline Size parse_size(std::string_view program, std::string_view text) {
  if (text == "smoke") return Size::smoke;
  if (text == "small") return Size::small;
  if (text == "bench") return Size::bench;
  usage_error(program, fmt::format("unknown size '{}' (expected smoke, small or bench)", text));
}

} // namespace detail

// Parses the command line, runs the kernel once and prints the RESULT line.
// Returns the process exit status: 0 verified, 1 not verified, 2 bad usage.
inline int run_kernel(const KernelSpec& spec, int argc, char** argv,
                      const std::function<Outcome(const Options&)>& run) {
  const std::string program = argc > 0 ? argv[0] : std::string(spec.name);
  Options options;
  options.variant = std::string(spec.variants.front());
  const std::span<char*> args(argv + 1, static_cast<std::size_t>(std::max(argc - 1, 0)));
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) detail::usage_error(program, fmt::format("option {} needs a value", arg));
      return args[++i];
    };
    if (arg == "--help" || arg == "-h") {
      detail::print_help(spec, program);
      return 0;
    } else if (arg == "--list-variants") {
      for (auto v : spec.variants) fmt::print("{}\n", v);
      return 0;
    } else if (arg == "--size") {
      options.size = detail::parse_size(program, value());
    } else if (arg == "--variant") {
      const std::string_view v = value();
      if (std::find(spec.variants.begin(), spec.variants.end(), v) == spec.variants.end())
        detail::usage_error(program, fmt::format("kernel {} has no variant '{}'", spec.name, v));
      options.variant = std::string(v);
    } else {
      detail::usage_error(program, fmt::format("unknown argument '{}'", arg));
    }
  }
  options.threads = omp_get_max_threads();

  Outcome outcome;
  try {
    outcome = run(options);
  } catch (const std::exception& error) {
    fmt::print(stderr, "{}: {}\n", program, error.what());
    outcome.verified = false;
  }
  fmt::print("RESULT kernel={} variant={} size={} threads={} time_s={:.6f} verified={} checksum={}\n",
             spec.name, options.variant, to_string(options.size), options.threads, outcome.time_s,
             outcome.verified ? 1 : 0, outcome.checksum.empty() ? "none" : outcome.checksum);
  std::fflush(stdout);
  return outcome.verified ? 0 : 1;
}

} // namespace bench
