// slots.hpp - the per-thread slots of deadlock detection: written by their
// thread (the hooks of watch.hpp), read by the watchdog (watchdog.cpp).
//
// A slot's `state` word holds the number of locks and critical sections the
// thread holds, whether it waits for one, and a sequence number that grows
// with every event: the thread's progress counter (unchanged over two
// scans: the thread did nothing in between).  The watchdog keeps a read of
// a slot only if it saw the same state before and after it.
//
// The lock and critical events change only the state word and an entry the
// state does not show yet, so each is one store of its data (the wait's
// entry) and one store of the state: the new state publishes the entry.
// The other events change fields the watchdog reads under the current state;
// they mark the state `writing` first, and a read that sees the mark counts
// the thread as running (a seqlock).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include "core/region_registry.hpp"

namespace ompp::deadlock {

enum class HeldKind : std::uint8_t { Lock, NestLock, Critical };

// A lock's address or a critical section's region with its kind in the top
// byte, which user-space addresses leave zero.
using TaggedObject = std::uintptr_t;
inline constexpr unsigned kKindShift = 56;
constexpr TaggedObject tagged(HeldKind kind, const void* object) {
    return static_cast<TaggedObject>(kind) << kKindShift | reinterpret_cast<TaggedObject>(object);
}
constexpr HeldKind kind_of(TaggedObject object) { return static_cast<HeldKind>(object >> kKindShift); }
inline const void* object_of(TaggedObject object) {
    return reinterpret_cast<const void*>(object & ((TaggedObject{1} << kKindShift) - 1));
}

inline constexpr std::size_t kRecentBarriers = 4;


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

// The locks and critical sections the thread holds, in the order taken, and
// above them the one it waits for.  A critical section is its region
// (compared by name).  One array per field: an entry's place is its index
// times the field's size, no multiplication on the event path.
struct HeldEntries {
    static constexpr std::size_t kSize = kMaxHeld + 1;  // the last for a wait beyond kMaxHeld
    std::array<std::atomic<TaggedObject>, kSize> object{};
    std::array<std::atomic<const void*>, kSize> site{};     // locks: where they were set
    std::array<std::atomic<std::uint32_t>, kSize> depth{};  // nest locks
};

// The state word: held count | waiting | writing | sequence.
namespace state {
inline constexpr std::uint64_t kHeldCount = 0xffff'ffff;  // may exceed kMaxHeld
inline constexpr std::uint64_t kWaiting = std::uint64_t{1} << 32;  // for the entry above the held ones
inline constexpr std::uint64_t kWriting = std::uint64_t{1} << 33;
inline constexpr std::uint64_t kEvent = std::uint64_t{1} << 34;  // one step of the sequence

constexpr std::uint64_t held_count(std::uint64_t word) { return word & kHeldCount; }
constexpr bool waiting(std::uint64_t word) { return (word & kWaiting) != 0; }
// The entry a wait is published in: above the held ones, or the spare one
// when more are held than seen.
constexpr std::size_t wait_index(std::uint64_t word) {
    return static_cast<std::size_t>(std::min<std::uint64_t>(held_count(word), kMaxHeld));
}
}  // namespace state

struct alignas(64) Slot {
    std::atomic<bool> used{false};
    std::atomic<std::uint64_t> state{0};
    std::atomic<int> os_thread{0};
    std::atomic<int> level{0};  // omp_get_level() of the innermost team
    std::atomic<std::uint32_t> task_depth{0};
    HeldEntries held;
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

// The data stores of an event that the current state does not show: the
// fence orders them after the state store of the previous event, so that a
// read that sees them sees that state at least (watchdog.cpp's read_slot).
[[gnu::always_inline]] inline std::uint64_t begin_event(const Slot& slot) {
    const auto word = slot.state.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    return word;
}

// The entry of the thread's innermost team; null outside any or too deep.
[[gnu::always_inline]] inline TeamEntry* innermost_team(Slot& slot) {
    const int level = slot.level.load(std::memory_order_relaxed);
    return level >= 1 && level <= kMaxLevels ? &slot.teams[static_cast<std::size_t>(level)] : nullptr;
}

// The owner's writes to fields the watchdog reads under the current state,
// between the `writing` mark and the next state.
class Writing {
public:
    explicit Writing(Slot& slot) : slot_(slot), start_(slot.state.load(std::memory_order_relaxed)) {
        slot_.state.store(start_ | state::kWriting, std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_release);
    }
    ~Writing() { slot_.state.store(start_ + state::kEvent, std::memory_order_release); }
    Writing(const Writing&) = delete;
    Writing& operator=(const Writing&) = delete;

    std::uint64_t start() const { return start_; }
    // The state to end with, when the writes change it (held count, waiting).
    void end_with(std::uint64_t word) { start_ = word; }

private:
    Slot& slot_;
    std::uint64_t start_;
};

// A new entry, which the state does not show yet.  Critical sections have
// no site, locks and critical sections no depth.
template <HeldKind Kind>
[[gnu::always_inline]] inline void write_entry(Slot& slot, std::size_t index, const void* object, const void* site) {
    slot.held.object[index].store(tagged(Kind, object), std::memory_order_relaxed);
    if constexpr (Kind != HeldKind::Critical) slot.held.site[index].store(site, std::memory_order_relaxed);
    if constexpr (Kind == HeldKind::NestLock) slot.held.depth[index].store(1, std::memory_order_relaxed);
}

// Waits for a lock or critical section: its entry, then the state that
// shows it.  false, having done nothing, when more are held than seen.
template <HeldKind Kind>
[[gnu::always_inline]] inline bool try_wait(Slot& slot, const void* object, const void* site) {
    const auto word = begin_event(slot);
    const auto count = state::held_count(word);
    if (count >= kMaxHeld) [[unlikely]] return false;
    write_entry<Kind>(slot, count, object, site);
    slot.state.store((word | state::kWaiting) + state::kEvent, std::memory_order_release);
    return true;
}

// The same in any case: beyond kMaxHeld in the spare entry.
template <HeldKind Kind>
void wait(Slot& slot, const void* object, const void* site) {
    const auto word = begin_event(slot);
    write_entry<Kind>(slot, state::wait_index(word), object, site);
    slot.state.store((word | state::kWaiting) + state::kEvent, std::memory_order_release);
}

// Holds what it waited for (its entry becomes a held one), or without a
// wait (omp_test_lock, or detection started in between) writes the entry
// first.  Not for a nest lock held already (watch.cpp's hold_nest_lock).
template <HeldKind Kind>
[[gnu::always_inline]] inline void hold(Slot& slot, const void* object, const void* site) {
    const auto word = begin_event(slot);
    if (state::waiting(word)) [[likely]] {
        slot.state.store(word - state::kWaiting + 1 + state::kEvent, std::memory_order_release);
        return;
    }
    write_entry<Kind>(slot, state::wait_index(word), object, site);
    slot.state.store(word + 1 + state::kEvent, std::memory_order_release);
}

// The release of the latest hold (critical sections always are), one
// store; false, having done nothing, for any other (release_held).
template <HeldKind Kind>
[[gnu::always_inline]] inline bool try_release_latest(Slot& slot, const void* object) {
    const auto word = slot.state.load(std::memory_order_relaxed);
    const auto latest = state::held_count(word) - 1;
    if (Kind == HeldKind::NestLock || latest >= kMaxHeld ||
        slot.held.object[latest].load(std::memory_order_relaxed) != tagged(Kind, object)) [[unlikely]]
        return false;
    slot.state.store(word - 1 + state::kEvent, std::memory_order_release);
    return true;
}

void release_held(Slot& slot, const void* object, bool nest);  // the general case

// The instance of the latest team forked at each place (team key, hashed):
// set by the forking thread before the team exists, read by its members.
inline constexpr std::size_t kForkPlaces = 1024;
extern std::array<std::atomic<std::uint64_t>, kForkPlaces> g_team_instances;

}  // namespace ompp::deadlock
