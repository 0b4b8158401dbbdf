// watch.hpp - deadlock detection (OMPP_DEADLOCK=report|abort), the part the
// POMP2 adapter calls on every synchronisation event.
//
// Each thread publishes, in its own slot, what it waits for (a lock, a
// critical section, the barrier of its team) and what it holds (locks,
// nest locks with their depth, critical sections).  A watchdog thread
// (watchdog.hpp) reads the slots periodically, builds the wait-for graph and
// reports a set of threads that can never proceed.  Only the owner thread
// writes its slot, with relaxed atomics published by one state word
// (slots.hpp): no lock and no allocation on the event path, and a lock or
// critical event is two or three stores, inlined into the event.
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

// A lock or critical event: the thread waits for, holds or releases it.
enum class Step : std::uint8_t { Wait, Hold, Release };

// The event without any call, for the events that want no register kept
// across one: false, having done nothing, when it needs one (the thread's
// first event, more held than seen, a release not of the latest hold).
// Not for nest locks.
template <Step S, HeldKind Kind>
[[gnu::always_inline]] inline bool try_publish(const void* object, const void* site = nullptr) {
    static_assert(Kind != HeldKind::NestLock);
    Slot* slot = t_slot;
    if (slot == nullptr) [[unlikely]] return false;
    if constexpr (S == Step::Wait) return try_wait<Kind>(*slot, object, site);
    if constexpr (S == Step::Hold) hold<Kind>(*slot, object, site);
    if constexpr (S == Step::Release) return try_release_latest<Kind>(*slot, object);
    return true;
}

// The event in any case, out of line.
template <Step S, HeldKind Kind>
[[gnu::noinline]] void publish_slowly(const void* object, const void* site = nullptr) {
    Slot& slot = my_slot();
    if constexpr (S == Step::Wait) wait<Kind>(slot, object, site);
    if constexpr (S == Step::Hold) hold<Kind>(slot, object, site);
    if constexpr (S == Step::Release) {
        if (!try_release_latest<Kind>(slot, object)) release_held(slot, object, false);
    }
}

template <Step S, HeldKind Kind>
[[gnu::always_inline]] inline void publish(const void* object, const void* site = nullptr) {
    if (!try_publish<S, Kind>(object, site)) [[unlikely]] publish_slowly<S, Kind>(object, site);
}

// Locks.  `site` is the code address of the application's call (the return
// address of the POMP2 wrapper), resolved to file:line only in a report.
void nest_lock_waiting(const void* lock, const void* site);
void nest_lock_acquired(const void* lock, const void* site);
void nest_lock_released(const void* lock);
[[gnu::always_inline]] inline void lock_waiting(const void* lock, bool nest, const void* site) {
    if (nest) return nest_lock_waiting(lock, site);
    publish<Step::Wait, HeldKind::Lock>(lock, site);
}
[[gnu::always_inline]] inline void lock_acquired(const void* lock, bool nest, const void* site) {
    if (nest) return nest_lock_acquired(lock, site);
    publish<Step::Hold, HeldKind::Lock>(lock, site);
}
[[gnu::always_inline]] inline void lock_released(const void* lock, bool nest) {
    if (nest) return nest_lock_released(lock);
    publish<Step::Release, HeldKind::Lock>(lock);
}

// Critical sections (by name: every unnamed critical is one section).
inline void critical_waiting(const core::RegionRecord& critical) { publish<Step::Wait, HeldKind::Critical>(&critical); }
inline void critical_acquired(const core::RegionRecord& critical) {
    publish<Step::Hold, HeldKind::Critical>(&critical);
}
inline void critical_released(const core::RegionRecord& critical) {
    publish<Step::Release, HeldKind::Critical>(&critical);
}

// The barrier and task hooks come in two forms, as try_publish: try_…
// without any call, false (having done nothing) when it needs one (the
// thread's first event, a construct not registered yet: null), and the
// full one, out of line.

// Barriers of the innermost team: `construct` is the barrier, or the
// worksharing construct or parallel region whose implicit barrier it is.
[[gnu::always_inline]] inline bool try_barrier_waiting(const core::RegionRecord* construct) {
    Slot* slot = t_slot;
    if (slot == nullptr) [[unlikely]] return false;
    TeamEntry* team = innermost_team(*slot);
    if (team == nullptr) return true;
    if (construct == nullptr) [[unlikely]] return false;
    const Writing writing(*slot);
    const auto arrival = team->arrivals.load(std::memory_order_relaxed) + 1;
    team->arrivals.store(arrival, std::memory_order_relaxed);
    team->recent[arrival % kRecentBarriers].store(construct, std::memory_order_relaxed);
    team->at_barrier.store(true, std::memory_order_relaxed);
    team->barrier_task_depth.store(slot->task_depth.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return true;
}
void barrier_waiting(const core::RegionRecord& construct);

// One field, so no `writing` mark: a read that sees it before the state
// sees the thread not waiting, which it is.
[[gnu::always_inline]] inline bool try_barrier_passed() {
    Slot* slot = t_slot;
    if (slot == nullptr) [[unlikely]] return false;
    TeamEntry* team = innermost_team(*slot);
    if (team == nullptr) return true;
    const auto word = begin_event(*slot);
    team->at_barrier.store(false, std::memory_order_relaxed);
    slot->state.store(word + state::kEvent, std::memory_order_release);
    return true;
}
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
[[gnu::always_inline]] inline bool try_team_end() {
    Slot* slot = t_slot;
    if (slot == nullptr) [[unlikely]] return false;
    const Writing writing(*slot);
    if (TeamEntry* team = innermost_team(*slot)) {
        team->at_barrier.store(false, std::memory_order_relaxed);
        team->ended.store(true, std::memory_order_relaxed);
    }
    const int level = slot->level.load(std::memory_order_relaxed);
    slot->level.store(level > 0 ? level - 1 : 0, std::memory_order_relaxed);
    return true;
}
void team_end();

// Explicit tasks run on this thread: a thread at a barrier that runs a task
// is not blocked there.  One field each, so no `writing` mark: a read that
// sees it before the state sees the state after the event.
[[gnu::always_inline]] inline bool try_task_began() {
    Slot* slot = t_slot;
    if (slot == nullptr) [[unlikely]] return false;
    const auto word = begin_event(*slot);
    slot->task_depth.store(slot->task_depth.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    slot->state.store(word + state::kEvent, std::memory_order_release);
    return true;
}
void task_began();

[[gnu::always_inline]] inline bool try_task_ended() {
    Slot* slot = t_slot;
    if (slot == nullptr) [[unlikely]] return false;
    const auto word = begin_event(*slot);
    // An untied task may end on another thread than it began on.
    if (const auto depth = slot->task_depth.load(std::memory_order_relaxed); depth > 0)
        slot->task_depth.store(depth - 1, std::memory_order_relaxed);
    slot->state.store(word + state::kEvent, std::memory_order_release);
    return true;
}
void task_ended();

// The lock wrappers: `acquire`/`release`/`attempt` (the OpenMP runtime's
// function) wrapped so that with watching() on the wait and the ownership
// are published around the call.  Inlined into the measured call, with the
// lock kind a constant.
template <bool Nest, typename Acquire>
auto watched_acquire(Acquire acquire, const void* site) {
    return [=](void* lock) __attribute__((always_inline)) {
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
    return [=](void* lock) __attribute__((always_inline)) {
        if (watching()) [[unlikely]] lock_released(lock, Nest);
        release(lock);
    };
}

template <bool Nest, typename Attempt>
auto watched_attempt(Attempt attempt, const void* site) {
    return [=](void* lock) __attribute__((always_inline)) {
        const int acquired = attempt(lock);
        if (acquired != 0 && watching()) [[unlikely]] lock_acquired(lock, Nest, site);
        return acquired;
    };
}

}  // namespace ompp::deadlock
