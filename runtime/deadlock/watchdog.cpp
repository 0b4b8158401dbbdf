#include "deadlock/watchdog.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>

#include <fmt/format.h>

#include "deadlock/code_location.hpp"
#include "platform/kernel_io.hpp"
#include "deadlock/slots.hpp"
#include "deadlock/watch.hpp"
#include "model/names.hpp"

namespace ompp::deadlock {
namespace {

using core::RegionRecord;

enum class Waiting : std::uint8_t { Nothing, Lock, NestLock, Critical };

Waiting waiting_for(HeldKind kind) {
    switch (kind) {
    case HeldKind::Lock: return Waiting::Lock;
    case HeldKind::NestLock: return Waiting::NestLock;
    case HeldKind::Critical: return Waiting::Critical;
    }
    return Waiting::Nothing;
}

// Plain copies of a slot, read consistently.
struct HeldView {
    HeldKind kind;
    const void* object;
    const void* site;
    std::uint32_t depth;
};

struct TeamView {
    const RegionRecord* parallel = nullptr;
    std::uint64_t key = 0;
    std::uint64_t instance = 0;
    bool ended = false;
    std::uint32_t size = 0;
    std::uint32_t thread_num = 0;
    std::uint32_t arrivals = 0;
    bool at_barrier = false;
    std::uint32_t barrier_task_depth = 0;
    std::array<const RegionRecord*, kRecentBarriers> recent{};

    // The construct of the team's barrier number `arrival` this thread
    // entered, if it still knows it.
    const RegionRecord* barrier(std::uint32_t arrival) const {
        return arrival >= 1 && arrival <= arrivals && arrivals - arrival < kRecentBarriers
                   ? recent[arrival % kRecentBarriers]
                   : nullptr;
    }
};

struct ThreadView {
    std::size_t slot = 0;
    std::uint64_t state = 0;  // changes with every event
    int os_thread = 0;
    Waiting waiting = Waiting::Nothing;
    const void* wait_object = nullptr;
    const void* wait_site = nullptr;
    int level = 0;
    std::uint32_t task_depth = 0;
    std::vector<HeldView> held;
    std::array<TeamView, kMaxLevels + 1> teams{};

    const TeamView* innermost_team() const {
        return level >= 1 && level <= kMaxLevels ? &teams[static_cast<std::size_t>(level)] : nullptr;
    }
};

constexpr auto kRelaxed = std::memory_order_relaxed;

TeamView read_team(const TeamEntry& team) {
    TeamView view{team.parallel.load(kRelaxed), team.key.load(kRelaxed),      team.instance.load(kRelaxed),
                  team.ended.load(kRelaxed),    team.size.load(kRelaxed),     team.thread_num.load(kRelaxed),
                  team.arrivals.load(kRelaxed), team.at_barrier.load(kRelaxed), team.barrier_task_depth.load(kRelaxed)};
    for (std::size_t i = 0; i < kRecentBarriers; ++i) view.recent[i] = team.recent[i].load(kRelaxed);
    return view;
}

// The slot as its owner last left it; none if unused or always being written.
std::optional<ThreadView> read_slot(const Slot& slot, std::size_t index) {
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (!slot.used.load(std::memory_order_acquire)) return std::nullopt;
        ThreadView view;
        view.slot = index;
        view.state = slot.state.load(std::memory_order_acquire);
        if ((view.state & state::kWriting) != 0) continue;
        view.os_thread = slot.os_thread.load(kRelaxed);
        view.level = slot.level.load(kRelaxed);
        view.task_depth = slot.task_depth.load(kRelaxed);
        // The entries the state shows: those held, then the wait.
        const auto held = state::wait_index(view.state);
        for (std::size_t i = 0; i < held; ++i) {
            const TaggedObject object = slot.held.object[i].load(kRelaxed);
            view.held.push_back({kind_of(object), object_of(object), slot.held.site[i].load(kRelaxed),
                                 slot.held.depth[i].load(kRelaxed)});
        }
        if (state::waiting(view.state)) {
            const TaggedObject object = slot.held.object[held].load(kRelaxed);
            view.waiting = waiting_for(kind_of(object));
            view.wait_object = object_of(object);
            view.wait_site = slot.held.site[held].load(kRelaxed);
        }
        for (std::size_t level = 1; level < slot.teams.size(); ++level) view.teams[level] = read_team(slot.teams[level]);
        // Stores the state did not show yet are ordered after the state
        // before them (slots.hpp's begin_event): a read that saw one sees
        // another state now.
        std::atomic_thread_fence(std::memory_order_acquire);
        if (slot.state.load(kRelaxed) == view.state) return view;
    }
    return std::nullopt;
}

std::string_view critical_name(const void* critical) {
    const auto& name = static_cast<const RegionRecord*>(critical)->info.name;
    return name ? std::string_view(*name) : std::string_view{};
}

bool holds(const ThreadView& thread, Waiting waiting, const void* object) {
    return std::any_of(thread.held.begin(), thread.held.end(), [&](const HeldView& held) {
        if (waiting == Waiting::Critical)
            return held.kind == HeldKind::Critical && critical_name(held.object) == critical_name(object);
        return held.kind != HeldKind::Critical && held.object == object;
    });
}

// Why a thread cannot go on, as edges of the wait-for graph (indices into
// the scan's threads).
struct Blocked {
    std::vector<std::size_t> waits_for;   // holder, or team members yet to arrive
    std::vector<std::size_t> left_team;   // members gone from the team before the barrier
};

std::optional<Blocked> blocked(const std::vector<ThreadView>& threads, std::size_t index) {
    const ThreadView& thread = threads[index];
    Blocked edges;
    if (thread.waiting != Waiting::Nothing) {
        for (std::size_t other = 0; other < threads.size(); ++other) {
            if (!holds(threads[other], thread.waiting, thread.wait_object)) continue;
            // A nest lock of its own is re-entered, not waited for.
            if (other == index && thread.waiting == Waiting::NestLock) return std::nullopt;
            edges.waits_for.push_back(other);
        }
        return edges;
    }
    const TeamView* team = thread.innermost_team();
    // At a barrier and not running a task there.
    if (team == nullptr || !team->at_barrier || team->barrier_task_depth != thread.task_depth)
        return std::nullopt;
    for (std::size_t other = 0; other < threads.size(); ++other) {
        if (other == index) continue;
        const TeamView& member = threads[other].teams[static_cast<std::size_t>(thread.level)];
        if (member.key != team->key || member.instance != team->instance || member.size != team->size) continue;
        if (member.arrivals >= team->arrivals) continue;
        (member.ended ? edges.left_team : edges.waits_for).push_back(other);
    }
    return edges;
}

// The threads that can never go on: the largest set in which every thread
// waits for a thread of the set or for a member gone from its team.
std::vector<std::size_t> stuck_threads(const std::vector<std::optional<Blocked>>& graph) {
    std::vector<bool> stuck(graph.size());
    for (std::size_t i = 0; i < graph.size(); ++i) stuck[i] = graph[i].has_value();
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < graph.size(); ++i) {
            if (!stuck[i] || !graph[i]->left_team.empty()) continue;
            const auto& targets = graph[i]->waits_for;
            if (std::none_of(targets.begin(), targets.end(), [&](std::size_t t) { return stuck[t]; })) {
                stuck[i] = false;
                changed = true;
            }
        }
    }
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < graph.size(); ++i)
        if (stuck[i]) out.push_back(i);
    return out;
}

// --- The report -------------------------------------------------------------

std::string where(const RegionRecord& region) {
    const auto& directive = region.info.directive;
    return fmt::format("{}:{}", directive.file, directive.first_line);
}

// The thread by its number in its team at `level` (a member gone from a
// team is named as it was there).
std::string thread_name(const ThreadView& thread, int level) {
    if (level >= 1 && level <= kMaxLevels)
        return fmt::format("thread {} (level {}, OS thread {})", thread.teams[static_cast<std::size_t>(level)].thread_num,
                           level, thread.os_thread);
    if (level == 0) return fmt::format("the initial thread (OS thread {})", thread.os_thread);
    return fmt::format("a thread at level {} (OS thread {})", level, thread.os_thread);
}

std::string thread_name(const ThreadView& thread) { return thread_name(thread, thread.level); }

std::string lock_name(const void* lock) {
    const RegionRecord& region = core::RegionRegistry::instance().lock(lock);
    if (region.info.directive.file.empty()) return fmt::format("lock {}", lock);
    return fmt::format("lock '{}' (initialised at {})", region.info.name.value_or("?"), where(region));
}

std::string critical_text(const void* critical) {
    const std::string_view name = critical_name(critical);
    return name.empty() ? std::string("the unnamed critical section") : fmt::format("critical section '{}'", name);
}

std::string barrier_text(const RegionRecord& construct) {
    if (construct.info.kind == model::RegionKind::Barrier) return fmt::format("the barrier at {}", where(construct));
    const int end = construct.info.block_end.first_line;
    return fmt::format("the implicit barrier of the {} at {}{}", model::report_name(construct.info.kind),
                       where(construct), end > 0 ? fmt::format(" (its end, line {})", end) : "");
}

std::string names_of(const std::vector<ThreadView>& threads, const std::vector<std::size_t>& which,
                     std::optional<int> level = std::nullopt) {
    std::string out;
    for (std::size_t i : which)
        out += fmt::format("{}{}", out.empty() ? "" : ", ", thread_name(threads[i], level.value_or(threads[i].level)));
    return out;
}

// Where the waiter and the members it waits for entered different
// barriers under one arrival number: a barrier not every thread reaches.
std::string parting_text(const std::vector<ThreadView>& threads, std::size_t index, const Blocked& edges) {
    const ThreadView& thread = threads[index];
    const TeamView& team = *thread.innermost_team();
    std::string text;
    for (const auto* members : {&edges.left_team, &edges.waits_for}) {
        for (std::size_t other : *members) {
            const TeamView& member = threads[other].teams[static_cast<std::size_t>(thread.level)];
            for (std::uint32_t arrival = 1; arrival <= member.arrivals; ++arrival) {
                const RegionRecord* mine = team.barrier(arrival);
                const RegionRecord* theirs = member.barrier(arrival);
                if (mine == nullptr || theirs == nullptr || mine == theirs) continue;
                text += fmt::format(";\nompp:     the team's barrier {} was {} for this thread but {} for {}: the team "
                                    "met at different barriers",
                                    arrival, barrier_text(*mine), barrier_text(*theirs),
                                    thread_name(threads[other], thread.level));
                break;
            }
        }
    }
    return text;
}

std::string waiting_text(const std::vector<ThreadView>& threads, std::size_t index, const Blocked& edges) {
    const ThreadView& thread = threads[index];
    switch (thread.waiting) {
    case Waiting::Lock:
    case Waiting::NestLock:
        return fmt::format("waits in {} at {} for {}, held by {}",
                           thread.waiting == Waiting::Lock ? "omp_set_lock" : "omp_set_nest_lock",
                           code_location(thread.wait_site), lock_name(thread.wait_object),
                           names_of(threads, edges.waits_for));
    case Waiting::Critical:
        return fmt::format("waits to enter {} at {}, held by {}", critical_text(thread.wait_object),
                           where(*static_cast<const RegionRecord*>(thread.wait_object)),
                           names_of(threads, edges.waits_for));
    case Waiting::Nothing: break;
    }
    const TeamView& team = *thread.innermost_team();
    const RegionRecord* barrier = team.barrier(team.arrivals);
    std::string text = fmt::format("waits at {}, barrier {} of its team{}",
                                   barrier != nullptr ? barrier_text(*barrier) : "a barrier", team.arrivals,
                                   team.parallel != nullptr ? fmt::format(" (parallel at {})", where(*team.parallel)) : "");
    if (!edges.waits_for.empty())
        text += fmt::format(", for {} to arrive", names_of(threads, edges.waits_for, thread.level));
    for (std::size_t gone : edges.left_team) {
        text += fmt::format("; {} can never arrive: it left the team after {} barrier(s)",
                            thread_name(threads[gone], thread.level),
                            threads[gone].teams[static_cast<std::size_t>(thread.level)].arrivals);
    }
    return text + parting_text(threads, index, edges);
}

std::string holding_text(const HeldView& held) {
    switch (held.kind) {
    case HeldKind::Lock: return fmt::format("{}, set at {}", lock_name(held.object), code_location(held.site));
    case HeldKind::NestLock:
        return fmt::format("nest {}, set at {} (depth {})", lock_name(held.object), code_location(held.site),
                           held.depth);
    case HeldKind::Critical:
        return fmt::format("{}, entered at {}", critical_text(held.object),
                           where(*static_cast<const RegionRecord*>(held.object)));
    }
    return {};
}

// The stuck threads in the order of their waits: from the first, along the
// first stuck thread each waits for, then any others.
std::vector<std::size_t> in_wait_order(const std::vector<std::optional<Blocked>>& graph,
                                       const std::vector<std::size_t>& stuck) {
    std::vector<std::size_t> order;
    const auto is_stuck = [&](std::size_t i) { return std::find(stuck.begin(), stuck.end(), i) != stuck.end(); };
    const auto listed = [&](std::size_t i) { return std::find(order.begin(), order.end(), i) != order.end(); };
    for (std::size_t start : stuck) {
        for (std::size_t i = start; !listed(i);) {
            order.push_back(i);
            const auto& targets = graph[i]->waits_for;
            const auto next = std::find_if(targets.begin(), targets.end(), is_stuck);
            if (next == targets.end()) break;
            i = *next;
        }
    }
    return order;
}

std::string report(const std::vector<ThreadView>& threads, const std::vector<std::optional<Blocked>>& graph,
                   const std::vector<std::size_t>& stuck) {
    std::string text = fmt::format("ompp: DEADLOCK: {} thread(s) can never go on:\n", stuck.size());
    for (std::size_t i : in_wait_order(graph, stuck)) {
        text += fmt::format("ompp:   {}\nompp:     {}\n", thread_name(threads[i]), waiting_text(threads, i, *graph[i]));
        for (const HeldView& held : threads[i].held) text += fmt::format("ompp:     holds {}\n", holding_text(held));
    }
    return text;
}

struct Watchdog {
    OnDeadlock on_deadlock;
    double interval_s;
    std::function<void()> write_profile;
};

void* watch(void* argument) {
    const Watchdog& watchdog = *static_cast<const Watchdog*>(argument);
    const auto whole = static_cast<std::time_t>(watchdog.interval_s);
    const timespec pause{whole, static_cast<long>((watchdog.interval_s - static_cast<double>(whole)) * 1e9)};
    Detector detector;
    for (;;) {
        platform::kernel_io::nanosleep(&pause, nullptr);
        const std::optional<std::string> found = detector.scan();
        if (!found) continue;
        std::fputs(found->c_str(), stderr);
        watchdog.write_profile();
        if (watchdog.on_deadlock == OnDeadlock::Abort) {
            std::fprintf(stderr, "ompp: OMPP_DEADLOCK=abort: ending the program with status %d\n", kAbortStatus);
            std::fflush(nullptr);
            ::_exit(kAbortStatus);
        }
        std::fputs("ompp: OMPP_DEADLOCK=report: the program stays blocked (the profile is written); kill it, or "
                   "set OMPP_DEADLOCK=abort to end it\n",
                   stderr);
        return nullptr;
    }
}

}  // namespace

std::optional<std::string> Detector::scan() {
    std::vector<ThreadView> threads;
    for (std::size_t i = 0; i < g_slots.size(); ++i) {
        if (auto view = read_slot(g_slots[i], i)) threads.push_back(std::move(*view));
    }
    std::vector<std::optional<Blocked>> graph;
    for (std::size_t i = 0; i < threads.size(); ++i) graph.push_back(blocked(threads, i));
    const std::vector<std::size_t> stuck = stuck_threads(graph);
    // The stuck threads and the members gone from their teams, as seen now.
    std::vector<Seen> seen;
    for (std::size_t i : stuck) {
        seen.push_back({threads[i].slot, threads[i].state});
        for (std::size_t gone : graph[i]->left_team) seen.push_back({threads[gone].slot, threads[gone].state});
    }
    std::sort(seen.begin(), seen.end(), [](const Seen& a, const Seen& b) { return a.slot < b.slot; });
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    const auto now = std::chrono::steady_clock::now();
    if (seen.empty() || seen != previous_) {
        previous_ = std::move(seen);
        since_ = now;
        return std::nullopt;
    }
    if (now - since_ < settle_) return std::nullopt;
    return report(threads, graph, stuck);
}

void start_watchdog(OnDeadlock on_deadlock, double interval_s, std::function<void()> write_profile) {
    // Leaked: the watchdog runs to the end of the process.
    auto* watchdog = new Watchdog{on_deadlock, interval_s, std::move(write_profile)};
    g_watching.store(true, std::memory_order_relaxed);
    sigset_t all;
    sigset_t previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);  // the thread inherits it: no handler ever runs there
    pthread_t thread;
    if (pthread_create(&thread, nullptr, watch, watchdog) == 0) {
        pthread_detach(thread);
    } else {
        std::fputs("ompp: OMPP_DEADLOCK: could not start the watchdog thread; no deadlock detection\n", stderr);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

}  // namespace ompp::deadlock
