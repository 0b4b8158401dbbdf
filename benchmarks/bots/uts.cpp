// BOTS uts: Unbalanced Tree Search.  Counts the nodes of an implicitly
// defined, highly unbalanced random tree: every node carries a random state
// from which the number of its children and their states are derived by
// hashing, so the tree is the same whatever the traversal order.  This is the
// binomial tree of the UTS benchmark: the root has b0 children, every other
// node has m children with probability q and none otherwise.  Each child is
// explored by a task.  (UTS derives states with SHA-1; we use a cheaper
// splitmix-based hash repeated a few rounds, so the node counts differ from
// the published UTS ones and are verified against a sequential traversal.)
#include <bench/kernel.hpp>

#include <cstdint>
#include <vector>

namespace {

struct TreeShape {
  int root_children; // b0
  int children;      // m
  double probability; // q
};

constexpr int hash_rounds = 8;

std::uint64_t child_state(std::uint64_t parent, int index) {
  std::uint64_t state = parent ^ (static_cast<std::uint64_t>(index) + 1) * 0xD1B54A32D192ED03ULL;
  for (int round = 0; round < hash_rounds; ++round) state = bench::Rng(state).next();
  return state;
}

int child_count(std::uint64_t state, bool is_root, const TreeShape& shape) {
  if (is_root) return shape.root_children;
  return bench::Rng(state).uniform() < shape.probability ? shape.children : 0;
}

std::uint64_t count_sequential(std::uint64_t state, bool is_root, const TreeShape& shape) {
  std::uint64_t nodes = 1;
  const int n = child_count(state, is_root, shape);
  for (int i = 0; i < n; ++i) nodes += count_sequential(child_state(state, i), false, shape);
  return nodes;
}

std::uint64_t count_tasks(std::uint64_t state, bool is_root, const TreeShape& shape) {
  const int n = child_count(state, is_root, shape);
  std::vector<std::uint64_t> subtree(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
#pragma omp task firstprivate(i) shared(subtree, shape)
    subtree[static_cast<std::size_t>(i)] = count_tasks(child_state(state, i), false, shape);
  }
#pragma omp taskwait
  std::uint64_t nodes = 1;
  for (const std::uint64_t s : subtree) nodes += s;
  return nodes;
}

bench::Outcome run(const bench::Options& options) {
  const TreeShape shape{bench::pick(options.size, 100, 2000, 40000), 8, 0.124};
  constexpr std::uint64_t root_state = 19;

  std::uint64_t nodes = 0;
  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    nodes = count_tasks(root_state, true, shape);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();
  outcome.verified = nodes > 1 && nodes == count_sequential(root_state, true, shape);
  outcome.checksum = std::to_string(nodes);
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "uts",
      .summary = "BOTS uts: node count of an unbalanced binomial random tree, one task per node; verified "
                 "against a sequential traversal.",
      .variants = {"default"},
      .sizes_help = "binomial tree with m = 8, q = 0.124 and root degree b0 = 100|2000|40000",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
