// The C++ side of strict_warnings_every_construct.c: construct families in
// member functions, templates and lambdas, nested tasks and taskloops (each
// taskloop gets ompp's guard object), built with the strict warning set of
// real C++ projects as errors (-Wold-style-cast, g++'s -Wuseless-cast). The
// plain build must be clean, and so must the instrumented one; both print
// the same, and the profile has a region of every construct family.
// DRIVER_ARGS: {runtime} -- {cxx} -std=c++17 -fopenmp {strict_cxxflags} -Werror -I{bindir}/../include {src} -o prog
// DRIVER_THEN: {cxx} -std=c++17 -fopenmp {strict_cxxflags} -Werror -I{bindir}/../include {src} -o plain
// DRIVER_THEN: OMP_NUM_THREADS=2 OMPP_QUIET=1 ./prog > instrumented.out && OMP_NUM_THREADS=2 ./plain > plain.out && cmp instrumented.out plain.out && cat plain.out
// DRIVER_THEN: python3 -c "import glob; from ompp_profile import read_profile; print(*sorted({r.kind for f in glob.glob('prog.*.ompp.json') for r in read_profile(f).regions.values()}))"
// DRIVER_THEN_STDOUT: ^grid 396 sum 4950 sections 2 tasks 55 taskloop 4950 nested 100 critical 100 locks 40 user 1$
// DRIVER_THEN_STDOUT: ^ATOMIC CRITICAL LOCK LOOP PARALLEL PARALLEL_LOOP PARALLEL_SECTIONS SECTION SINGLE TASK TASKLOOP TASKWAIT USER_REGION$
#include <omp.h>
#include <pomp2/pomp2_user.h>

#include <cstdio>
#include <vector>

namespace {

class Grid {
public:
  explicit Grid(std::size_t n) : cells_(n, 1) {}

  long step() {
    long total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      cells_[i] *= 2;
      total += cells_[i];
    }
    return total;
  }

private:
  std::vector<long> cells_;
};

template <typename T> T sum_below(T n) {
  T total = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : total)
    for (T i = 0; i < n; ++i)
      total += i;
#pragma omp single
    {
#pragma omp task
      {
#pragma omp taskwait
      }
    }
  }
  return total;
}

long fib(int n) {
  if (n < 2)
    return n;
  long x = 0, y = 0;
  auto half = [&](int m, long &out) {
#pragma omp task shared(out) if (m > 10)
    out = fib(m);
  };
  half(n - 1, x);
  half(n - 2, y);
#pragma omp taskwait
  return x + y;
}

// Clang 16 warns on the conversions of its own taskloop code (on any loop
// variable type), so a project built with clang silences them here.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wsign-conversion"
#pragma clang diagnostic ignored "-Wshorten-64-to-32"
#endif
long taskloops(long &nested) {
  long total = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(10) reduction(+ : total)
    for (long i = 0; i < 100; ++i)
      total += i;
#pragma omp taskloop num_tasks(2) shared(nested)
    for (int i = 0; i < 10; ++i) {
#pragma omp taskloop num_tasks(2) shared(nested)
      for (int j = 0; j < 10; ++j) {
#pragma omp atomic
        nested++;
      }
    }
  }
  return total;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

} // namespace

int main() {
  Grid grid(99);
  grid.step();
  const long grid_total = grid.step();
  int sections = 0, critical = 0, locked = 0, user = 0;
  long tasks = 0, nested = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
  POMP_USER_REGION_BEGIN("main");
#pragma omp parallel sections reduction(+ : sections)
  {
#pragma omp section
    sections++;
#pragma omp section
    sections++;
  }
#pragma omp parallel num_threads(2)
  {
#pragma omp single nowait
    tasks = fib(10);
#pragma omp for
    for (int i = 0; i < 100; ++i) {
#pragma omp critical
      ++critical;
    }
    for (int i = 0; i < 20; ++i) {
      omp_set_lock(&lock);
      ++locked;
      omp_unset_lock(&lock);
    }
  }
  user++;
  POMP_USER_REGION_END("main");
  omp_destroy_lock(&lock);
  const long below = sum_below(100L);
  const long loops = taskloops(nested);
  std::printf("grid %ld sum %ld sections %d tasks %ld taskloop %ld nested %ld critical %d locks %d user %d\n",
              grid_total, below, sections, tasks, loops, nested, critical, locked, user);
  return 0;
}
