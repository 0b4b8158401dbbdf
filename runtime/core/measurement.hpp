// measurement.hpp - the measurement core: the clock, the registry of measured
// threads, the fork table that hangs worker trees under their fork point, and
// the step that turns everything measured into a model::Profile.
//
// Each thread reaches its ThreadState through a thread-local pointer; the
// registry lock is taken only when a thread is first seen or ends (and by
// readers that list the threads).  Several Measurements may exist one after
// another (tests); a thread's binding is tagged with the Measurement's
// generation.
//
// Thread state is recycled by team position: libgomp starts new OS threads
// for every nested team, and each would otherwise keep its state (~90 KB)
// to the end.  A worker thread that ends with nothing open parks its state
// under its team position (its ancestor thread numbers); the next new
// thread at that position carries on with it, under the same thread id, as
// the report presents threads.  Two threads at one team position never run
// at once (the team that held it was joined before the next was forked), so
// a recycled state's visits never overlap in time.  Parked states stay in
// the registry: readers see them as before, nothing is ever freed.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/clock.hpp"
#include "core/counter_hook.hpp"
#include "core/node.hpp"
#include "core/thread_state.hpp"
#include "model/profile.hpp"

namespace ompp::core {

struct ForkRecord {
    const Node* node = nullptr;  // null: no fork known for the key
    std::uint32_t thread = 0;
    TeamRecord* team = nullptr;
};

// One forking thread's latest fork, read by its teams' workers.  Neither the
// fork's time nor anything else of one instance is in it: a fork node keeps
// its slot's contents from one instance to the next, so the slot's line is
// written only when another node (or another open instance of a folded one)
// forks under the key, and each instance's workers read it from their own
// cache.  The fork's time reaches the master's join instead (TeamMember::begun).
struct ForkSlot {
    std::atomic<std::uint64_t> key{0};
    std::atomic<const Node*> node{nullptr};
    std::atomic<std::uint32_t> thread{0};
    std::atomic<TeamRecord*> team{nullptr};
};

// Lock-free map from a forking thread's identity to its latest fork.  The
// OpenMP runtime orders a fork before the team's begin events, so a worker
// always finds the fork of its own team.  A key keeps its slot for good
// (slots are claimed, never freed): a thread that forks, or joins teams,
// under the same key as last time keeps the slot (ThreadState) instead of
// hashing and probing again.
class ForkTable {
public:
    // The slot of `key`, claimed on first use.
    ForkSlot& claim(std::uint64_t key);
    // The slot of `key`, or null while nothing was published under it.
    const ForkSlot* slot_of(std::uint64_t key) const;
    // Stores only what changed: the same fork node forking again leaves
    // the line shared, as its workers last read it.  `team_grown`: the
    // record's members were replaced, a change its workers must see too
    // (they read TeamRecord::members and capacity after this release).
    static void publish(ForkSlot& slot, const ForkRecord& record, bool team_grown = false) {
        if (slot.node.load(std::memory_order_relaxed) == record.node &&
            slot.team.load(std::memory_order_relaxed) == record.team && !team_grown) [[likely]]
            return;
        slot.thread.store(record.thread, std::memory_order_relaxed);
        slot.team.store(record.team, std::memory_order_relaxed);
        slot.node.store(record.node, std::memory_order_release);
    }
    static ForkRecord read(const ForkSlot& slot) {
        ForkRecord record;
        record.node = slot.node.load(std::memory_order_acquire);
        record.thread = slot.thread.load(std::memory_order_relaxed);
        record.team = slot.team.load(std::memory_order_relaxed);
        return record;
    }

private:
    static constexpr std::size_t kSlots = 1024;
    std::array<ForkSlot, kSlots> slots_;
    ForkSlot overflow_;  // shared by all keys once the table is full
};

struct ThreadBinding {
    std::uint64_t generation;
    ThreadState* state;
};
extern __thread ThreadBinding t_binding __attribute__((tls_model("initial-exec")));

// States of ended worker threads by team position, for the next new thread
// there.  Shared with the threads' exit hooks, which may run after the
// Measurement is gone (then they find it expired).
struct ParkedThreads {
    std::mutex mutex;
    std::unordered_map<std::uint64_t, std::vector<ThreadState*>> by_position;
};

// Call paths deeper than this fold (see ThreadState::push): the default of
// OMPP_MAX_DEPTH.
inline constexpr std::uint32_t kDefaultMaxDepth = 50;

class Measurement {
public:
    explicit Measurement(Clock clock, std::uint32_t max_depth = kDefaultMaxDepth);
    Measurement(const Measurement&) = delete;
    Measurement& operator=(const Measurement&) = delete;
    ~Measurement();

    ThreadState& this_thread() {
        if (ThreadState* known = known_thread()) [[likely]] return *known;
        return attach_this_thread(kNoTeamPosition);
    }
    // This thread's state if it was seen before, else null.
    ThreadState* known_thread() const {
        return t_binding.generation == generation_ ? t_binding.state : nullptr;
    }
    // The same for a thread that begins a parallel region as a worker:
    // `team_position()` gives its position key (0: unknown), asked only
    // when the thread is first seen, to carry on with a parked state.
    template <typename TeamPositionKey>
    ThreadState& this_worker(TeamPositionKey&& team_position) {
        if (t_binding.generation == generation_) [[likely]] return *t_binding.state;
        return attach_this_thread(team_position());
    }
    Ticks now() const { return clock_.now(); }
    const Clock& clock() const { return clock_; }
    Ticks start() const { return start_; }
    std::uint32_t max_depth() const { return max_depth_; }

    // Counter sources (runtime/counters/) install their factory before the
    // first event; threads seen later get a reader each.
    void set_counter_reader_factory(CounterReaderFactory factory);

    // Called on each OS thread as it is first seen (or carries on with a
    // parked state), before its first event; set before the first event.
    // The adapter gives the thread what signal handling needs there.
    using ThreadAttachHook = void (*)();
    void set_thread_attach_hook(ThreadAttachHook hook) { thread_attach_hook_ = hook; }

    // Whether threads sample their CPU use (core/thread_cpu.hpp): not
    // under a manual clock, whose ticks are not comparable to CPU time.
    bool samples_cpu() const { return clock_.source() != ClockSource::Manual; }

    ForkTable& forks() { return forks_; }
    void note_team_size(std::uint32_t size) {
        if (size > max_team_size_.load(std::memory_order_relaxed)) [[unlikely]] note_larger_team(size);
    }
    std::uint32_t max_team_size() const { return max_team_size_.load(std::memory_order_relaxed); }

    // Program end.  stop(): from now on every event is refused, and events
    // in flight are waited for (each thread's EventScope; bounded, never a
    // sleep); close_open_regions(): then closes every thread's open regions
    // at `now` (ThreadState::close_open_regions).  A thread still inside an
    // event after the bound (interrupted there by the signal being handled)
    // keeps its regions open, and the profile says so in a warning.
    void stop();
    void close_open_regions(Ticks now);
    bool stopped() const { return stopped_.load(std::memory_order_relaxed); }
    std::vector<std::uint32_t> interrupted_threads() const {
        std::lock_guard lock(threads_mutex_);
        return interrupted_threads_;
    }
    // Start of every event, between counting it in flight and reading
    // stopped(): with membarrier, stop() does the fencing for both sides and
    // this is only a compiler barrier; without it, a full fence.
    void order_event_start() const {
        if (asymmetric_fence_) [[likely]] {
            std::atomic_signal_fence(std::memory_order_seq_cst);
        } else {
            std::atomic_thread_fence(std::memory_order_seq_cst);
        }
    }

    // Whether the instrumented code may count untimed visits itself
    // (ThreadState::untimed_cache): only with membarrier, which lets its
    // counting take a compiler barrier where an event takes a fence, and
    // neither switched off (POMP2_Off) nor stopped.  A thread that fills its
    // cache checks this after (order_event_start), so after
    // stop_inline_counting() returns no thread counts inline until
    // allow_inline_counting(): the cache of every thread is cleared.
    bool counts_untimed_inline() const {
        return asymmetric_fence_ && inline_counting_.load(std::memory_order_relaxed);
    }
    void stop_inline_counting();
    void allow_inline_counting() { inline_counting_.store(true, std::memory_order_relaxed); }

    // Read-only traversal of every thread's tree, safe while threads measure.
    void for_each_thread(const std::function<void(const ThreadState&)>& visit) const;

    // Everything measured so far as a profile (regions, nodes, threads, tasks,
    // warnings, wall time).  Safe while threads measure.
    model::Profile build_profile() const;

private:
    static constexpr std::uint64_t kNoTeamPosition = 0;
    // The other side of order_event_start(): membarrier, or a full fence.
    void order_against_events() const;
    // Inline counting switched off and, behind a fence, every thread's
    // untimed cache cleared; returns holding threads_mutex_.
    std::unique_lock<std::mutex> clear_inline_counting();
    void note_larger_team(std::uint32_t size);
    ThreadState& attach_this_thread(std::uint64_t team_position);
    ThreadState* take_parked(std::uint64_t team_position);
    ThreadState& add_thread();

    Clock clock_;
    Ticks start_;
    const std::uint32_t max_depth_;
    const std::uint64_t generation_;
    const bool asymmetric_fence_;  // membarrier(PRIVATE_EXPEDITED) registered
    alignas(64) std::atomic<bool> stopped_{false};
    std::atomic<bool> inline_counting_{true};
    std::vector<std::uint32_t> interrupted_threads_;  // still in an event at stop(); guarded by threads_mutex_
    ForkTable forks_;
    std::atomic<std::uint32_t> max_team_size_{1};
    mutable std::mutex threads_mutex_;
    std::vector<std::unique_ptr<ThreadState>> threads_;
    CounterReaderFactory counter_factory_;
    ThreadAttachHook thread_attach_hook_ = nullptr;
    std::shared_ptr<ParkedThreads> parked_ = std::make_shared<ParkedThreads>();
};

}  // namespace ompp::core
