// measurement.hpp - the measurement core: the clock, the registry of measured
// threads, the fork table that hangs worker trees under their fork point, and
// the step that turns everything measured into a model::Profile.
//
// Each thread reaches its ThreadState through a thread-local pointer; the
// registry lock is taken only when a thread is first seen (and by readers that
// list the threads).  Several Measurements may exist one after another (tests);
// a thread's binding is tagged with the Measurement's generation.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/clock.hpp"
#include "core/counter_hook.hpp"
#include "core/node.hpp"
#include "core/thread_state.hpp"
#include "model/profile.hpp"

namespace ompp::core {

struct ForkRecord {
    const Node* node = nullptr;  // null: no fork known for the key
    Ticks time = 0;
    std::uint32_t thread = 0;
    TeamRecord* team = nullptr;
};

// Lock-free map from a forking thread's identity to its latest fork.  The
// OpenMP runtime orders a fork before the team's begin events, so a worker
// always finds the fork of its own team.
class ForkTable {
public:
    void publish(std::uint64_t key, const ForkRecord& record);
    ForkRecord find(std::uint64_t key) const;

private:
    struct Slot {
        std::atomic<std::uint64_t> key{0};
        std::atomic<const Node*> node{nullptr};
        std::atomic<Ticks> time{0};
        std::atomic<std::uint32_t> thread{0};
        std::atomic<TeamRecord*> team{nullptr};
    };
    static constexpr std::size_t kSlots = 1024;
    const Slot* slot_for(std::uint64_t key) const;
    std::array<Slot, kSlots> slots_;
    Slot overflow_;  // shared by all keys once the table is full
};

struct ThreadBinding {
    std::uint64_t generation;
    ThreadState* state;
};
extern __thread ThreadBinding t_binding __attribute__((tls_model("initial-exec")));

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
        if (t_binding.generation == generation_) [[likely]] return *t_binding.state;
        return attach_this_thread();
    }
    Ticks now() const { return clock_.now(); }
    const Clock& clock() const { return clock_; }
    Ticks start() const { return start_; }
    std::uint32_t max_depth() const { return max_depth_; }

    // Counter sources (runtime/counters/) install their factory before the
    // first event; threads seen later get a reader each.
    void set_counter_reader_factory(CounterReaderFactory factory);

    // Whether threads sample their CPU use (core/thread_cpu.hpp): not
    // under a manual clock, whose ticks are not comparable to CPU time.
    bool samples_cpu() const { return clock_.source() != ClockSource::Manual; }

    ForkTable& forks() { return forks_; }
    void note_team_size(std::uint32_t size);
    std::uint32_t max_team_size() const { return max_team_size_.load(std::memory_order_relaxed); }

    // Program end, after events stopped being recorded: closes every
    // thread's open regions at `now` (ThreadState::close_open_regions).
    void close_open_regions(Ticks now);

    // Read-only traversal of every thread's tree, safe while threads measure.
    void for_each_thread(const std::function<void(const ThreadState&)>& visit) const;

    // Everything measured so far as a profile (regions, nodes, threads, tasks,
    // warnings, wall time).  Safe while threads measure.
    model::Profile build_profile() const;

private:
    ThreadState& attach_this_thread();

    Clock clock_;
    Ticks start_;
    const std::uint32_t max_depth_;
    const std::uint64_t generation_;
    ForkTable forks_;
    std::atomic<std::uint32_t> max_team_size_{1};
    mutable std::mutex threads_mutex_;
    std::vector<std::unique_ptr<ThreadState>> threads_;
    CounterReaderFactory counter_factory_;
};

}  // namespace ompp::core
