// BOTS fib: the n-th Fibonacci number by naive doubly recursive evaluation,
// one task per recursive call.  It is the pathological case of the suite:
// each task adds two numbers and waits for its two children, so task
// management dominates.  The cut-off variant stops creating tasks below a
// fixed recursion depth and recurses sequentially from there.  The `if` and
// `final` variants cut off the BOTS way, with the clause: below the depth
// every call still creates a task, undeferred (`if`) or included (`final`),
// which the OpenMP runtime runs almost like a call.
#include <bench/kernel.hpp>

#include <cstdint>
#include <string>

namespace {

constexpr int cutoff_depth = 10;

std::uint64_t fib_sequential(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  return fib_sequential(n - 1) + fib_sequential(n - 2);
}

std::uint64_t fib_tasks(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t x = 0;
  std::uint64_t y = 0;
#pragma omp task shared(x) firstprivate(n)
  x = fib_tasks(n - 1);
#pragma omp task shared(y) firstprivate(n)
  y = fib_tasks(n - 2);
#pragma omp taskwait
  return x + y;
}

std::uint64_t fib_tasks_cutoff(int n, int depth) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  if (depth >= cutoff_depth) return fib_sequential(n);
  std::uint64_t x = 0;
  std::uint64_t y = 0;
#pragma omp task shared(x) firstprivate(n, depth)
  x = fib_tasks_cutoff(n - 1, depth + 1);
#pragma omp task shared(y) firstprivate(n, depth)
  y = fib_tasks_cutoff(n - 2, depth + 1);
#pragma omp taskwait
  return x + y;
}

// The clause cut-offs: `final` makes every task below the depth an included
// task (and its descendants with it), `if` makes each one undeferred.
std::uint64_t fib_tasks_clause(int n, int depth, bool final_clause) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t x = 0;
  std::uint64_t y = 0;
#pragma omp task shared(x) firstprivate(n, depth) if (final_clause || depth < cutoff_depth) \
    final(final_clause && depth >= cutoff_depth)
  x = fib_tasks_clause(n - 1, depth + 1, final_clause);
#pragma omp task shared(y) firstprivate(n, depth) if (final_clause || depth < cutoff_depth) \
    final(final_clause && depth >= cutoff_depth)
  y = fib_tasks_clause(n - 2, depth + 1, final_clause);
#pragma omp taskwait
  return x + y;
}

std::uint64_t fib_iterative(int n) {
  std::uint64_t previous = 0;
  std::uint64_t current = 1;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t next = previous + current;
    previous = current;
    current = next;
  }
  return previous;
}

bench::Outcome run(const bench::Options& options) {
  const std::string& variant = options.variant;
  const bool cutoff = variant == "cutoff";
  const int n = cutoff ? bench::pick(options.size, 25, 35, 43) : bench::pick(options.size, 18, 25, 32);

  std::uint64_t result = 0;
  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    result = cutoff                ? fib_tasks_cutoff(n, 0)
             : variant == "nocutoff" ? fib_tasks(n)
                                     : fib_tasks_clause(n, 0, variant == "final");
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();
  outcome.verified = result == fib_iterative(n);
  outcome.checksum = std::to_string(result);
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "fib",
      .summary = "BOTS fib: recursive Fibonacci, one task per call; verified against the iterative value.",
      .variants = {"cutoff", "nocutoff", "if", "final"},
      .sizes_help = "fib(n): cutoff n = 25|35|43 (tasks to depth 10), nocutoff, if, final n = 18|25|32 (if, "
                    "final: deferred tasks to depth 10, undeferred or included below)",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
