// watchdog.hpp - the thread that finds deadlocks in the slots the POMP2
// events publish (watch.hpp), and what happens when it finds one.
//
// Every interval it reads all slots and builds the wait-for graph: a thread
// waiting for a lock or critical section waits for its holder; a thread at a
// barrier waits for every member of its team that has entered fewer of the
// team's barriers.  A thread is stuck when what it waits for is stuck, or
// when a member it waits for has left the team (ended its implicit task):
// that member can never reach the barrier.  A set of stuck threads is
// reported only when later scans find it again with every thread in it
// unchanged (no event in between) for a settling time, so a race between
// the events and a scan cannot make a report, nor can a thread that was
// released but not yet scheduled (cancellation lets a thread leave its team
// before the others pass their barrier: they are released, not stuck).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ompp::deadlock {

// OMPP_DEADLOCK=abort ends the program with this status after the report.
inline constexpr int kAbortStatus = 86;

enum class OnDeadlock { Report, Abort };

// Sets watching() and starts the watchdog (all signals blocked on it).
// `write_profile` runs on the watchdog thread once a deadlock is reported,
// while the deadlocked threads stay blocked.
void start_watchdog(OnDeadlock on_deadlock, double interval_s, std::function<void()> write_profile);

// Unchanged stuck threads are reported after this long (and two scans).
inline constexpr std::chrono::milliseconds kSettle{200};

// One scan after another; what the watchdog runs (tests run it directly).
class Detector {
public:
    explicit Detector(std::chrono::steady_clock::duration settle = kSettle) : settle_(settle) {}
    // The report of a deadlock found now and, unchanged, at the scans of at
    // least the settling time before.
    std::optional<std::string> scan();

private:
    struct Seen {
        std::size_t slot;
        std::uint64_t state;  // the slot's state word
        bool operator==(const Seen&) const = default;
    };
    std::chrono::steady_clock::duration settle_;
    std::vector<Seen> previous_;  // the stuck threads of the previous scan
    std::chrono::steady_clock::time_point since_;  // when they were first seen so
};

}  // namespace ompp::deadlock
