// slots.hpp - the per-thread slots of deadlock detection: written by their
// thread (the hooks of watch.hpp), read by the watchdog (watchdog.cpp).
//
// A slot's `sequence` is odd while its owner writes and grows with every
// write: the watchdog keeps a read only if it saw the same even sequence
// before and after, and the sequence doubles as the thread's progress
// counter (unchanged over two scans: the thread did nothing in between).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "core/region_registry.hpp"

namespace ompp::deadlock {

enum class Waiting : std::uint8_t { Nothing, Lock, NestLock, Critical };
enum class HeldKind : std::uint8_t { Lock, NestLock, Critical };

inline constexpr std::size_t kRecentBarriers = 4;

// A lock or critical section the thread holds.  `object` is the lock's
// address, or for a critical section its region (compared by name).
struct HeldEntry {
    std::atomic<const void*> object{nullptr};
    std::atomic<const void*> site{nullptr};  // locks: where they were set
    std::atomic<std::uint32_t> depth{0};     // nest locks
    std::atomic<HeldKind> kind{HeldKind::Lock};
};

// The thread's membership of the team at one nesting level.  Kept after
// the thread ended its implicit task (`ended`) until it joins the next team
// at that level: "left the team" is what makes a barrier unreachable.  The
// members of one team have the same key, size and instance.
struct TeamEntry {
    std::atomic<const core::RegionRecord*> parallel{nullptr};
    std::atomic<std::uint64_t> key{0};
    std::atomic<std::uint64_t> instance{0};
    std::atomic<bool> ended{false};
    std::atomic<std::uint32_t> size{0};
    std::atomic<std::uint32_t> thread_num{0};
    std::atomic<std::uint32_t> arrivals{0};  // barriers entered in this team
    std::atomic<bool> at_barrier{false};     // waiting at recent[arrivals % kRecentBarriers]
    std::atomic<std::uint32_t> barrier_task_depth{0};
    // The latest barriers entered, by arrival number: where members that
    // met at different barriers went apart.  A barrier construct is an
    // explicit barrier, any other construct its implicit barrier.
    std::array<std::atomic<const core::RegionRecord*>, kRecentBarriers> recent{};
};

inline constexpr std::size_t kMaxHeld = 16;    // more held at once: the rest unseen
inline constexpr int kMaxLevels = 8;            // deeper teams: unseen
inline constexpr std::size_t kMaxThreads = 256;  // more threads: unseen

struct alignas(64) Slot {
    std::atomic<bool> used{false};
    std::atomic<std::uint64_t> sequence{0};
    std::atomic<int> os_thread{0};
    std::atomic<Waiting> waiting{Waiting::Nothing};
    std::atomic<const void*> wait_object{nullptr};  // lock address or critical region
    std::atomic<const void*> wait_site{nullptr};
    std::atomic<int> level{0};  // omp_get_level() of the innermost team
    std::atomic<std::uint32_t> task_depth{0};
    std::atomic<std::uint32_t> held_count{0};  // may exceed kMaxHeld
    std::array<HeldEntry, kMaxHeld> held{};
    std::array<TeamEntry, kMaxLevels + 1> teams{};  // by level; [0] unused
};

// All slots; a thread claims one on its first event (watch.cpp).
extern std::array<Slot, kMaxThreads> g_slots;

// --- The owner's side: inline, since the lock and critical events run it.

// This thread's slot; initial-exec TLS (as core's t_binding), so no
// __tls_get_addr call per event.
extern __thread Slot* t_slot __attribute__((tls_model("initial-exec")));
Slot& claim();  // a free slot, or one no watchdog reads when all are taken

[[gnu::always_inline]] inline Slot& my_slot() {
    if (t_slot == nullptr) [[unlikely]] t_slot = &claim();
    return *t_slot;
}

// The owner's writes to its slot, between two sequence bumps.
class Writing {
public:
    explicit Writing(Slot& slot) : slot_(slot), start_(slot.sequence.load(std::memory_order_relaxed)) {
        slot_.sequence.store(start_ + 1, std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_release);
    }
    ~Writing() { slot_.sequence.store(start_ + 2, std::memory_order_release); }
    Writing(const Writing&) = delete;
    Writing& operator=(const Writing&) = delete;

private:
    Slot& slot_;
    std::uint64_t start_;
};

inline void publish_wait(Waiting what, const void* object, const void* site) {
    Slot& slot = my_slot();
    const Writing writing(slot);
    slot.waiting.store(what, std::memory_order_relaxed);
    slot.wait_object.store(object, std::memory_order_relaxed);
    slot.wait_site.store(site, std::memory_order_relaxed);
}

// A lock (not a nest lock: see nest_lock_acquired) or critical section.
inline void publish_hold(HeldKind kind, const void* object, const void* site) {
    Slot& slot = my_slot();
    const Writing writing(slot);
    slot.waiting.store(Waiting::Nothing, std::memory_order_relaxed);
    const auto count = slot.held_count.load(std::memory_order_relaxed);
    if (count < kMaxHeld) {
        HeldEntry& entry = slot.held[count];
        entry.object.store(object, std::memory_order_relaxed);
        entry.site.store(site, std::memory_order_relaxed);
        entry.depth.store(1, std::memory_order_relaxed);
        entry.kind.store(kind, std::memory_order_relaxed);
    }
    slot.held_count.store(count + 1, std::memory_order_relaxed);
}

void release_held(Slot& slot, const void* object, bool nest);  // the general case

inline void publish_release(const void* object, bool nest) {
    Slot& slot = my_slot();
    const auto count = slot.held_count.load(std::memory_order_relaxed);
    // Most often the latest one taken (critical sections always).
    if (!nest && count - 1 < kMaxHeld && slot.held[count - 1].object.load(std::memory_order_relaxed) == object) {
        const Writing writing(slot);
        slot.held_count.store(count - 1, std::memory_order_relaxed);
        return;
    }
    release_held(slot, object, nest);
}

// The instance of the latest team forked at each place (team key, hashed):
// set by the forking thread before the team exists, read by its members.
inline constexpr std::size_t kForkPlaces = 1024;
extern std::array<std::atomic<std::uint64_t>, kForkPlaces> g_team_instances;

}  // namespace ompp::deadlock
