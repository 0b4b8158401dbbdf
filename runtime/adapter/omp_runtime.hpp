// omp_runtime.hpp - the OpenMP runtime functions libompp uses, resolved from
// the application at load time (libgomp or libomp).  libompp never links an
// OpenMP runtime itself; without one (tests driving it from std::thread)
// these are null and libompp behaves as if there were a single team level.
#pragma once

#include <cstdint>

extern "C" {
int omp_get_level(void) __attribute__((weak));
int omp_get_ancestor_thread_num(int level) __attribute__((weak));
int omp_get_num_threads(void) __attribute__((weak));
int omp_get_max_threads(void) __attribute__((weak));
int omp_get_thread_num(void) __attribute__((weak));
int omp_get_active_level(void) __attribute__((weak));
int omp_get_max_active_levels(void) __attribute__((weak));
}

namespace ompp::adapter {

inline int omp_level() { return omp_get_level != nullptr ? omp_get_level() : 0; }

// A parallel region forked now, at `level`, gets a team of one thread:
// nested parallelism is used up (a recursion that forks at every level).
// At level 0 no level is active, so only the limit is asked.
inline bool nesting_exhausted(int level) {
    if (omp_get_active_level == nullptr || omp_get_max_active_levels == nullptr) return false;
    return (level > 0 ? omp_get_active_level() : 0) >= omp_get_max_active_levels();
}

// Identity of the thread at `level` of the current nesting (its ancestor
// thread numbers), the key under which it publishes its forks.  Costs
// O(level^2) in libgomp: computed only for teams with workers.
inline std::uint64_t thread_identity(int level) {
    std::uint64_t key = 0xcbf29ce484222325ULL ^ static_cast<std::uint64_t>(level + 1);
    if (omp_get_ancestor_thread_num == nullptr) return key;
    for (int l = 1; l <= level; ++l) {
        key = (key ^ static_cast<std::uint64_t>(omp_get_ancestor_thread_num(l) + 1)) * 0x100000001b3ULL;
    }
    return key;
}

// The team position of a worker thread at `level`, under which its state is
// recycled when its OS thread ends (core::Measurement::this_worker); 0, no
// recycling, for the initial thread and without an OpenMP runtime, where
// the position is not known.
inline std::uint64_t team_position(int level) {
    return level > 0 && omp_get_ancestor_thread_num != nullptr ? thread_identity(level) : 0;
}

}  // namespace ompp::adapter
