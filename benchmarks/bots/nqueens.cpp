// BOTS nqueens: counts every placement of n non-attacking queens on an n x n
// board by backtracking.  Each candidate column of each row is a task that gets
// its own copy of the partial board; the parent waits and sums the children's
// counts.  The cut-off variant searches sequentially below a fixed depth.
#include <bench/kernel.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>

namespace {

constexpr int max_n = 16;
constexpr int cutoff_depth = 3;
using Board = std::array<std::int8_t, max_n>; // board[row] = column of the queen in that row

// Solution counts from the literature (OEIS A000170).
constexpr std::array<std::uint64_t, max_n + 1> known_solutions = {
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512};

// Can a queen go to `column` of `row` given the queens in rows 0..row-1?
bool is_safe(const Board& board, int row, int column) {
  for (int r = 0; r < row; ++r) {
    const int c = board[r];
    if (c == column || c - column == row - r || column - c == row - r) return false;
  }
  return true;
}

std::uint64_t count_sequential(int n, int row, Board& board) {
  if (row == n) return 1;
  std::uint64_t solutions = 0;
  for (int column = 0; column < n; ++column) {
    if (!is_safe(board, row, column)) continue;
    board[row] = static_cast<std::int8_t>(column);
    solutions += count_sequential(n, row + 1, board);
  }
  return solutions;
}

// How the search stops creating deferred tasks at cutoff_depth: not at all,
// by searching sequentially (the manual cut-off), or the BOTS way with a
// clause, every candidate below still a task, undeferred (`if`) or included
// (`final`).
enum class Cutoff { None, Manual, IfClause, FinalClause };

std::uint64_t count_tasks(int n, int row, const Board& board, Cutoff cutoff) {
  if (row == n) return 1;
  if (cutoff == Cutoff::Manual && row >= cutoff_depth) {
    Board copy = board;
    return count_sequential(n, row, copy);
  }
  std::array<std::uint64_t, max_n> per_column{};
  for (int column = 0; column < n; ++column) {
#pragma omp task firstprivate(column) shared(per_column, board) \
    if (cutoff != Cutoff::IfClause || row < cutoff_depth) final(cutoff == Cutoff::FinalClause && row >= cutoff_depth)
    {
      Board child = board; // every task explores its own copy of the partial board
      if (is_safe(child, row, column)) {
        child[row] = static_cast<std::int8_t>(column);
        per_column[column] = count_tasks(n, row + 1, child, cutoff);
      }
    }
  }
#pragma omp taskwait
  std::uint64_t solutions = 0;
  for (int column = 0; column < n; ++column) solutions += per_column[column];
  return solutions;
}

bench::Outcome run(const bench::Options& options) {
  const Cutoff cutoff = options.variant == "cutoff"  ? Cutoff::Manual
                        : options.variant == "if"    ? Cutoff::IfClause
                        : options.variant == "final" ? Cutoff::FinalClause
                                                     : Cutoff::None;
  const int n = bench::pick(options.size, 8, 11, cutoff == Cutoff::Manual ? 13 : 12);
  if (n > max_n) throw std::logic_error("board too large");

  std::uint64_t solutions = 0;
  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    solutions = count_tasks(n, 0, Board{}, cutoff);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();
  outcome.verified = solutions == known_solutions[n];
  outcome.checksum = std::to_string(solutions);
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "nqueens",
      .summary = "BOTS nqueens: counts n-queens solutions, one task per candidate column; verified against the "
                 "known counts.",
      .variants = {"cutoff", "nocutoff", "if", "final"},
      .sizes_help = "n = 8|11|13 (nocutoff, if, final bench: 12; cutoff: tasks to depth 3; if, final: deferred "
                    "tasks to depth 3, undeferred or included below)",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
