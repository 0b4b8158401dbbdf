// watch.hpp - deadlock detection (OMPP_DEADLOCK=report|abort), the part the
// POMP2 adapter calls on every synchronisation event.
//
// Each thread publishes, in its own slot, what it waits for (a lock, a
// critical section, the barrier of its team) and what it holds (locks,
// nest locks with their depth, critical sections).  A watchdog thread
// (watchdog.hpp) reads the slots periodically, builds the wait-for graph and
// reports a set of threads that can never proceed.  Only the owner thread
// writes its slot, with relaxed atomics under a sequence counter (a
// seqlock): no lock and no allocation on the event path.
//
// Off (the default), every hook is behind watching(), one well-predicted
// branch on a flag that never changes after start.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/region_registry.hpp"
#include "deadlock/slots.hpp"

namespace ompp::deadlock {

extern std::atomic<bool> g_watching;

inline bool watching() { return g_watching.load(std::memory_order_relaxed); }

// Locks.  `site` is the code address of the application's call (the return
// address of the POMP2 wrapper), resolved to file:line only in a report.
void nest_lock_waiting(const void* lock, const void* site);
void nest_lock_acquired(const void* lock, const void* site);
inline void lock_waiting(const void* lock, bool nest, const void* site) {
    if (nest) return nest_lock_waiting(lock, site);
    publish_wait(Waiting::Lock, lock, site);
}
inline void lock_acquired(const void* lock, bool nest, const void* site) {
    if (nest) return nest_lock_acquired(lock, site);
    publish_hold(HeldKind::Lock, lock, site);
}
inline void lock_released(const void* lock, bool nest) { publish_release(lock, nest); }

// Critical sections (by name: every unnamed critical is one section).
inline void critical_waiting(const core::RegionRecord& critical) {
    publish_wait(Waiting::Critical, &critical, nullptr);
}
inline void critical_acquired(const core::RegionRecord& critical) {
    publish_hold(HeldKind::Critical, &critical, nullptr);
}
inline void critical_released(const core::RegionRecord& critical) { publish_release(&critical, false); }

// Barriers of the innermost team: `construct` is the barrier, or the
// worksharing construct or parallel region whose implicit barrier it is.
void barrier_waiting(const core::RegionRecord& construct);
void barrier_passed();

// A team forked (on the forking thread, before the team exists), and the
// thread's implicit task in it: `team_key` is the forking thread's place in
// the nesting (the same for every member), `level` omp_get_level() in it.
void team_forked(std::uint64_t team_key);
struct TeamJoin {
    const core::RegionRecord* parallel;
    std::uint64_t team_key;
    int level;
    int thread_num;
    int team_size;
};
void team_begin(const TeamJoin& join);
void team_end();

// Explicit tasks run on this thread: a thread at a barrier that runs a task
// is not blocked there.
void task_began();
void task_ended();

// The lock wrappers: `acquire`/`release`/`attempt` (the OpenMP runtime's
// function) wrapped so that with watching() on the wait and the ownership
// are published around the call.  Inlined into the measured call, with the
// lock kind a constant.
template <bool Nest, typename Acquire>
auto watched_acquire(Acquire acquire, const void* site) {
    return [=](void* lock) [[gnu::always_inline]] {
        if (!watching()) [[likely]] {
            acquire(lock);
            return;
        }
        lock_waiting(lock, Nest, site);
        acquire(lock);
        lock_acquired(lock, Nest, site);
    };
}

// The release is published before the lock is released: a stale "holds"
// could close a false cycle, a stale "released" cannot.
template <bool Nest, typename Release>
auto watched_release(Release release) {
    return [=](void* lock) [[gnu::always_inline]] {
        if (watching()) [[unlikely]] lock_released(lock, Nest);
        release(lock);
    };
}

template <bool Nest, typename Attempt>
auto watched_attempt(Attempt attempt, const void* site) {
    return [=](void* lock) [[gnu::always_inline]] {
        const int acquired = attempt(lock);
        if (acquired != 0 && watching()) [[unlikely]] lock_acquired(lock, Nest, site);
        return acquired;
    };
}

}  // namespace ompp::deadlock
