// BOTS health: simulation of a country's health system (after the Olden
// benchmark).  Villages form a 4-ary tree; each has a hospital with a fixed
// staff.  Every time step, each village first lets its sub-villages advance
// (one task per sub-village), takes in the patients they refer upwards, then
// advances its own hospital: treated patients leave, assessed patients are
// either admitted or referred to the parent village, waiting patients are
// assessed when staff is free, and new patients fall sick at random.  The
// cut-off variant creates tasks only in the top levels of the tree.
#include <bench/kernel.hpp>

#include <cstdint>
#include <deque>
#include <vector>

namespace {

constexpr int branching = 4;
constexpr int cutoff_depth = 2;
constexpr int assessment_steps = 3;
constexpr int treatment_steps = 10;
constexpr double sick_probability = 0.1;
constexpr double admit_probability = 0.5; // otherwise the patient is referred upwards

struct Patient {
  int waited_steps = 0;
  int hospitals_visited = 1;
  int steps_left = 0;
};

struct Statistics {
  std::uint64_t treated = 0;
  std::uint64_t total_wait = 0;
  std::uint64_t total_hospitals = 0;
};

struct Village {
  int level = 0; // 0 = the capital, leaves have level levels-1
  int staff = 0;
  int free_staff = 0;
  bench::Rng rng;
  std::vector<Village> children;
  std::deque<Patient> waiting, assessing, admitted;
  std::vector<Patient> referred; // to the parent, collected by it after this step
  Statistics statistics;

  Village(int level_, std::uint64_t seed) : level(level_), rng(seed) {}
};

Village build(int levels, int level, std::uint64_t id) {
  Village village(level, 0x5EED0000 + id);
  village.staff = village.free_staff = 2 << (levels - level - 1); // bigger hospitals higher up
  if (level + 1 < levels)
    for (int c = 0; c < branching; ++c)
      village.children.push_back(build(levels, level + 1, id * branching + static_cast<std::uint64_t>(c) + 1));
  return village;
}

// One time step of one village, after its children have done theirs.
void advance_hospital(Village& v) {
  for (Village& child : v.children) {
    for (Patient& p : child.referred) {
      ++p.hospitals_visited;
      v.waiting.push_back(p);
    }
    child.referred.clear();
  }
  for (std::size_t i = v.admitted.size(); i-- > 0;) {
    Patient p = v.admitted.front();
    v.admitted.pop_front();
    if (--p.steps_left > 0) {
      v.admitted.push_back(p);
      continue;
    }
    ++v.free_staff;
    ++v.statistics.treated;
    v.statistics.total_wait += static_cast<std::uint64_t>(p.waited_steps);
    v.statistics.total_hospitals += static_cast<std::uint64_t>(p.hospitals_visited);
  }
  for (std::size_t i = v.assessing.size(); i-- > 0;) {
    Patient p = v.assessing.front();
    v.assessing.pop_front();
    if (--p.steps_left > 0) {
      v.assessing.push_back(p);
    } else if (v.level == 0 || v.rng.uniform() < admit_probability) {
      p.steps_left = treatment_steps;
      v.admitted.push_back(p); // keeps its staff member
    } else {
      ++v.free_staff;
      v.referred.push_back(p);
    }
  }
  while (v.free_staff > 0 && !v.waiting.empty()) {
    Patient p = v.waiting.front();
    v.waiting.pop_front();
    --v.free_staff;
    p.steps_left = assessment_steps;
    v.assessing.push_back(p);
  }
  for (Patient& p : v.waiting) ++p.waited_steps;
  if (v.rng.uniform() < sick_probability) v.waiting.push_back(Patient{});
}

void step_tasks(Village& village, int depth, bool cutoff) {
  for (Village& child : village.children) {
    if (cutoff && depth >= cutoff_depth) {
      step_tasks(child, depth + 1, cutoff);
    } else {
      // A pointer, not the reference: a firstprivate reference would copy the village.
      Village* sub_village = &child;
#pragma omp task firstprivate(sub_village, depth, cutoff)
      step_tasks(*sub_village, depth + 1, cutoff);
    }
  }
#pragma omp taskwait
  advance_hospital(village);
}

void step_sequential(Village& village) {
  for (Village& child : village.children) step_sequential(child);
  advance_hospital(village);
}

Statistics totals(const Village& village) {
  Statistics sum = village.statistics;
  for (const Village& child : village.children) {
    const Statistics s = totals(child);
    sum.treated += s.treated;
    sum.total_wait += s.total_wait;
    sum.total_hospitals += s.total_hospitals;
  }
  return sum;
}

bench::Outcome run(const bench::Options& options) {
  const bool cutoff = options.variant == "cutoff";
  const int levels = bench::pick(options.size, 4, 5, cutoff ? 7 : 6);
  const int steps = bench::pick(options.size, 200, 500, cutoff ? 1000 : 1500);
  Village country = build(levels, 0, 0);
  Village reference = country;

  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    for (int step = 0; step < steps; ++step) step_tasks(country, 0, cutoff);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();

  for (int step = 0; step < steps; ++step) step_sequential(reference);
  const Statistics result = totals(country);
  const Statistics expected = totals(reference);
  outcome.verified = result.treated > 0 && result.treated == expected.treated &&
                     result.total_wait == expected.total_wait && result.total_hospitals == expected.total_hospitals;
  outcome.checksum = fmt::format("{}-{}-{}", result.treated, result.total_wait, result.total_hospitals);
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "health",
      .summary = "BOTS health: hospital-system simulation on a 4-ary tree of villages, one task per village and "
                 "step; verified against a sequential simulation.",
      .variants = {"cutoff", "nocutoff"},
      .sizes_help = "tree levels x time steps = 4x200|5x500|7x1000 (nocutoff bench: 6x1500; cutoff: tasks to depth 2)",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
