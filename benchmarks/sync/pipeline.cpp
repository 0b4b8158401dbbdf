// A wavefront pipeline synchronised by busy-waiting on flags with `flush`,
// the way NAS LU's SSOR sweeps (blts/buts with sync_left/sync_right) do it:
// inside one parallel region each thread owns a band of rows (`omp for
// schedule(static) nowait`), and for every plane waits until the thread
// above has finished that plane, computes its band, and tells the thread
// below.  Each plane of a band is a few microseconds of work, so a `flush`
// that costs more than the clock shows directly in the run time (the overhead
// issue's item 4: within 5% of plain at 2 threads).
#include <bench/kernel.hpp>

#include <omp.h>

#include <vector>

namespace {

constexpr int kMaxThreads = 256;

struct Grid {
  int n;  // cells per dimension, boundaries included
  std::vector<double> u;
  explicit Grid(int cells) : n(cells), u(static_cast<std::size_t>(cells) * cells * cells) {
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) at(k, j, i) = 1.0 / (1 + i + 2 * j + 3 * k);
  }
  double& at(int k, int j, int i) { return u[(static_cast<std::size_t>(k) * n + j) * n + i]; }
};

// One cell: its value from the cells before it in all three directions.
inline void relax(Grid& g, int k, int j, int i) {
  g.at(k, j, i) = 0.3 * (g.at(k - 1, j, i) + g.at(k, j - 1, i) + g.at(k, j, i - 1)) + 0.05 * g.at(k, j, i);
}

void sweep_sequential(Grid& g) {
  for (int k = 1; k < g.n; ++k)
    for (int j = 1; j < g.n; ++j)
      for (int i = 1; i < g.n; ++i) relax(g, k, j, i);
}

// The flags of NAS LU: isync[t] == 1 when thread t finished a plane that
// thread t + 1 has not taken yet.
int isync[kMaxThreads];

void wait_for_thread_above(int me) {
  if (me == 0) return;
  while (isync[me - 1] == 0) {
#pragma omp flush
  }
  isync[me - 1] = 0;
#pragma omp flush
}

void tell_thread_below(int me, int threads) {
  if (me == threads - 1) return;
  while (isync[me] == 1) {
#pragma omp flush
  }
  isync[me] = 1;
#pragma omp flush
}

void sweeps_pipelined(Grid& g, int sweeps) {
#pragma omp parallel
  {
    const int me = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    isync[me] = 0;
#pragma omp barrier
    for (int s = 0; s < sweeps; ++s) {
      for (int k = 1; k < g.n; ++k) {
        wait_for_thread_above(me);
#pragma omp for schedule(static) nowait
        for (int j = 1; j < g.n; ++j)
          for (int i = 1; i < g.n; ++i) relax(g, k, j, i);
#pragma omp flush
        tell_thread_below(me, threads);
      }
    }
  }
}

double sum(const Grid& g) {
  double total = 0;
  for (double v : g.u) total += v;
  return total;
}

bench::Outcome run(const bench::Options& options) {
  const int n = bench::pick(options.size, 24, 48, 48);
  const int sweeps = bench::pick(options.size, 5, 200, 3000);
  bench::Outcome outcome;
  if (omp_get_max_threads() > kMaxThreads) {
    outcome.checksum = "too-many-threads";
    return outcome;
  }
  Grid grid(n);
  const bench::Stopwatch stopwatch;
  sweeps_pipelined(grid, sweeps);
  outcome.time_s = stopwatch.elapsed_s();
  // The pipeline keeps every dependence of the sequential order, so the
  // values are bit for bit the same.
  Grid reference(n);
  for (int s = 0; s < sweeps; ++s) sweep_sequential(reference);
  outcome.verified = grid.u == reference.u;
  outcome.checksum = bench::float_checksum(sum(grid));
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "pipeline",
      .summary = "NAS-LU-style wavefront: bands of rows handed on plane by plane through flags polled with flush; "
                 "verified bit for bit against the sequential sweep.",
      .variants = {"default"},
      .sizes_help = "n^3 cells x sweeps: 24^3 x 5 | 48^3 x 200 | 48^3 x 3000",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
