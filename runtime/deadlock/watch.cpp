#include "deadlock/watch.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "deadlock/slots.hpp"

namespace ompp::deadlock {

std::atomic<bool> g_watching{false};
std::array<Slot, kMaxThreads> g_slots{};
std::array<std::atomic<std::uint64_t>, kForkPlaces> g_team_instances{};
__thread Slot* t_slot = nullptr;

namespace {

// Threads beyond kMaxThreads all write here; the watchdog never reads it.
Slot g_unwatched;

void clear(Slot& slot) {
    Writing writing(slot);
    writing.end_with(writing.start() & ~(state::kHeldCount | state::kWaiting));
    slot.level.store(0, std::memory_order_relaxed);
    slot.task_depth.store(0, std::memory_order_relaxed);
    for (TeamEntry& team : slot.teams) {
        team.key.store(0, std::memory_order_relaxed);
        team.at_barrier.store(false, std::memory_order_relaxed);
    }
}

// Gives the slot back when the thread ends (libgomp ends the threads of
// nested teams): what it held is forgotten, which can only hide a deadlock.
struct SlotRelease {
    ~SlotRelease() {
        if (t_slot == nullptr || t_slot == &g_unwatched) return;
        clear(*t_slot);
        t_slot->used.store(false, std::memory_order_release);
        t_slot = &g_unwatched;
    }
};

// The index of the entry holding `object`, searched from the latest; none
// if it is not held (or not seen).
std::optional<std::size_t> held_entry(const Slot& slot, const void* object) {
    for (auto i = state::wait_index(slot.state.load(std::memory_order_relaxed)); i-- > 0;) {
        if (object_of(slot.held.object[i].load(std::memory_order_relaxed)) == object) return i;
    }
    return std::nullopt;
}

void hold_nest_lock(Slot& slot, const void* lock, const void* site) {
    if (const auto entry = held_entry(slot, lock)) {
        const Writing writing(slot);
        auto& depth = slot.held.depth[*entry];
        depth.store(depth.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        return;
    }
    hold<HeldKind::NestLock>(slot, lock, site);
}

}  // namespace

Slot& claim() {
    thread_local SlotRelease release;
    for (Slot& slot : g_slots) {
        bool free = false;
        if (slot.used.load(std::memory_order_relaxed) ||
            !slot.used.compare_exchange_strong(free, true, std::memory_order_acquire))
            continue;
        clear(slot);
        slot.os_thread.store(static_cast<int>(::syscall(SYS_gettid)), std::memory_order_relaxed);
        return slot;
    }
    return g_unwatched;
}

void release_held(Slot& slot, const void* object, bool nest) {
    Writing writing(slot);
    const auto count = state::held_count(writing.start());
    const auto entry = held_entry(slot, object);
    if (!entry) {
        // Beyond kMaxHeld, or released by another thread than the one that
        // set it (an untied task moved): not ours to track.
        if (count > kMaxHeld) writing.end_with(writing.start() - 1);
        return;
    }
    HeldEntries& held = slot.held;
    if (const auto depth = held.depth[*entry].load(std::memory_order_relaxed); nest && depth > 1) {
        held.depth[*entry].store(depth - 1, std::memory_order_relaxed);
        return;
    }
    // Keep the order: the entries above move down one.
    constexpr auto kRelaxed = std::memory_order_relaxed;
    for (auto i = *entry; i + 1 < std::min<std::uint64_t>(count, kMaxHeld); ++i) {
        held.object[i].store(held.object[i + 1].load(kRelaxed), kRelaxed);
        held.site[i].store(held.site[i + 1].load(kRelaxed), kRelaxed);
        held.depth[i].store(held.depth[i + 1].load(kRelaxed), kRelaxed);
    }
    writing.end_with(writing.start() - 1);
}

void nest_lock_waiting(const void* lock, const void* site) {
    // One this thread holds is entered again at once.
    Slot& slot = my_slot();
    if (!held_entry(slot, lock)) wait<HeldKind::NestLock>(slot, lock, site);
}

void nest_lock_acquired(const void* lock, const void* site) { hold_nest_lock(my_slot(), lock, site); }

void nest_lock_released(const void* lock) { release_held(my_slot(), lock, true); }

void barrier_waiting(const core::RegionRecord& construct) {
    my_slot();
    try_barrier_waiting(&construct);
}

void barrier_passed() {
    my_slot();
    try_barrier_passed();
}

void team_forked(std::uint64_t team_key) {
    static std::atomic<std::uint64_t> forks{0};
    g_team_instances[team_key % kForkPlaces].store(forks.fetch_add(1, std::memory_order_relaxed) + 1,
                                                   std::memory_order_release);
}

void team_begin(const TeamJoin& join) {
    Slot& slot = my_slot();
    const Writing writing(slot);
    slot.level.store(join.level, std::memory_order_relaxed);
    TeamEntry* team = innermost_team(slot);
    if (team == nullptr) return;
    team->parallel.store(join.parallel, std::memory_order_relaxed);
    team->key.store(join.team_key, std::memory_order_relaxed);
    team->instance.store(g_team_instances[join.team_key % kForkPlaces].load(std::memory_order_acquire),
                         std::memory_order_relaxed);
    team->ended.store(false, std::memory_order_relaxed);
    team->size.store(static_cast<std::uint32_t>(join.team_size), std::memory_order_relaxed);
    team->thread_num.store(static_cast<std::uint32_t>(join.thread_num), std::memory_order_relaxed);
    // `recent` is read only for the arrivals in this team: no reset.
    team->arrivals.store(0, std::memory_order_relaxed);
    team->at_barrier.store(false, std::memory_order_relaxed);
}

void team_end() {
    my_slot();
    try_team_end();
}

void task_began() {
    my_slot();
    try_task_began();
}

void task_ended() {
    my_slot();
    try_task_ended();
}

}  // namespace ompp::deadlock
