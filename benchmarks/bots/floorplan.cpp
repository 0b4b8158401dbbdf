// BOTS floorplan: branch-and-bound search for the placement of n rectangular
// cells, each available in a few alternative shapes, that has the smallest
// bounding box.  Cells are placed in order; the next cell may go to the right
// of or below any placed cell without overlapping.  Every feasible placement
// becomes a task with its own copy of the board; partial placements whose
// bounding box is already no smaller than the best complete one are pruned.
// The cut-off variant creates tasks only in the top levels of the search.
#include <bench/kernel.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

namespace {

constexpr int board_size = 64;
constexpr int max_cells = 16;
constexpr int shapes_per_cell = 3;
constexpr int cutoff_depth = 3;

struct Shape {
  int width, height;
};
using Cell = std::array<Shape, shapes_per_cell>;

struct Placement {
  int x = 0, y = 0, width = 0, height = 0;
};

// A partial floorplan: occupancy bitmap (bit x of row y) and the cells placed so far.
struct Floorplan {
  std::array<std::uint64_t, board_size> rows{};
  std::array<Placement, max_cells> placed{};
  int count = 0;
  int extent_x = 0, extent_y = 0; // bounding box

  int area() const { return extent_x * extent_y; }
  bool fits(const Placement& p) const {
    if (p.x + p.width > board_size || p.y + p.height > board_size) return false;
    const std::uint64_t mask = (p.width == 64 ? ~0ULL : ((1ULL << p.width) - 1)) << p.x;
    for (int y = p.y; y < p.y + p.height; ++y)
      if (rows[y] & mask) return false;
    return true;
  }
  void place(const Placement& p) {
    const std::uint64_t mask = (p.width == 64 ? ~0ULL : ((1ULL << p.width) - 1)) << p.x;
    for (int y = p.y; y < p.y + p.height; ++y) rows[y] |= mask;
    placed[count++] = p;
    extent_x = std::max(extent_x, p.x + p.width);
    extent_y = std::max(extent_y, p.y + p.height);
  }
};

struct Candidates {
  std::array<Placement, 2 * max_cells * shapes_per_cell> items;
  int count = 0;
};

// The placements of the next cell that fit and could still beat `best_area`.
Candidates feasible_placements(const Cell& cell, const Floorplan& plan, int best_area) {
  Candidates result;
  for (const Shape& shape : cell) {
    auto consider = [&](int x, int y) {
      const Placement p{x, y, shape.width, shape.height};
      const int area = std::max(plan.extent_x, x + p.width) * std::max(plan.extent_y, y + p.height);
      if (area < best_area && plan.fits(p)) result.items[result.count++] = p;
    };
    if (plan.count == 0) consider(0, 0);
    for (int i = 0; i < plan.count; ++i) {
      const Placement& q = plan.placed[i];
      consider(q.x + q.width, q.y);  // to the right of q
      consider(q.x, q.y + q.height); // below q
    }
  }
  return result;
}

void record_solution(std::atomic<int>& best_area, int area) {
  int best = best_area.load(std::memory_order_relaxed);
  while (area < best && !best_area.compare_exchange_weak(best, area, std::memory_order_relaxed)) {
  }
}

void search_tasks(const std::vector<Cell>& cells, const Floorplan& plan, std::atomic<int>& best_area,
                  bool cutoff);

void search_sequential(const std::vector<Cell>& cells, const Floorplan& plan, std::atomic<int>& best_area) {
  if (plan.count == static_cast<int>(cells.size())) {
    record_solution(best_area, plan.area());
    return;
  }
  const Candidates next = feasible_placements(cells[plan.count], plan, best_area.load(std::memory_order_relaxed));
  for (int i = 0; i < next.count; ++i) {
    Floorplan child = plan;
    child.place(next.items[i]);
    search_sequential(cells, child, best_area);
  }
}

void search_tasks(const std::vector<Cell>& cells, const Floorplan& plan, std::atomic<int>& best_area,
                  bool cutoff) {
  if (cutoff && plan.count >= cutoff_depth) {
    search_sequential(cells, plan, best_area);
    return;
  }
  if (plan.count == static_cast<int>(cells.size())) {
    record_solution(best_area, plan.area());
    return;
  }
  const Candidates next = feasible_placements(cells[plan.count], plan, best_area.load(std::memory_order_relaxed));
  for (int i = 0; i < next.count; ++i) {
    const Placement placement = next.items[i];
#pragma omp task firstprivate(placement) shared(cells, plan, best_area)
    {
      Floorplan child = plan; // every task works on its own copy of the board
      child.place(placement);
      search_tasks(cells, child, best_area, cutoff);
    }
  }
#pragma omp taskwait
}

std::vector<Cell> generate_cells(int count) {
  bench::Rng rng(31337);
  std::vector<Cell> cells(static_cast<std::size_t>(count));
  for (Cell& cell : cells) {
    const int width = 1 + static_cast<int>(rng.below(6));
    const int height = 1 + static_cast<int>(rng.below(6));
    const int area = width * height;
    const int alt_width = std::max(1, std::min(8, width + 2));
    cell = {Shape{width, height}, Shape{height, width}, Shape{alt_width, (area + alt_width - 1) / alt_width}};
  }
  // Largest cells first: their bounding boxes prune the search early.
  std::ranges::sort(cells, std::greater{}, [](const Cell& cell) { return cell[0].width * cell[0].height; });
  return cells;
}

bench::Outcome run(const bench::Options& options) {
  const bool cutoff = options.variant == "cutoff";
  const int cell_count = bench::pick(options.size, 6, 10, 14);
  const std::vector<Cell> cells = generate_cells(cell_count);
  constexpr int no_solution = board_size * board_size + 1;

  std::atomic<int> best_area{no_solution};
  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    search_tasks(cells, Floorplan{}, best_area, cutoff);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();

  std::atomic<int> reference_area{no_solution};
  search_sequential(cells, Floorplan{}, reference_area);
  outcome.verified = best_area.load() != no_solution && best_area.load() == reference_area.load();
  outcome.checksum = std::to_string(best_area.load());
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "floorplan",
      .summary = "BOTS floorplan: branch-and-bound placement of cells with alternative shapes, one task per "
                 "feasible placement; verified against a sequential search.",
      .variants = {"cutoff", "nocutoff"},
      .sizes_help = "cells = 6|10|14 (cutoff: tasks to depth 3)",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
