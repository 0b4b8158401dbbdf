// The POMP2 C API (OPARI2 2.0.7 plus ompp's extensions) mapped onto the
// measurement core.  Each call: one gate check, the region from its handle,
// the clock, one ThreadState operation.
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <algorithm>
#include <atomic>

#include "adapter/lifecycle.hpp"
#include "adapter/omp_runtime.hpp"
#include "adapter/tracing.hpp"
#include "analyses/analyses_step.hpp"
#include "core/region_registry.hpp"
#include "deadlock/watch.hpp"

#define OMPP_API __attribute__((visibility("default")))

namespace {

using ompp::adapter::gate;
using ompp::adapter::measured;
using ompp::adapter::record;
using ompp::adapter::recorded;
using ompp::adapter::recorded_now;
using ompp::adapter::traced;
using ompp::core::Measurement;
using ompp::core::RegionRecord;
using ompp::core::RegionRegistry;
using ompp::core::TaskHandle;
using ompp::core::TeamBegin;
using ompp::core::ThreadState;
using ompp::deadlock::watching;
using K = ompp::model::RegionKind;
using NK = ompp::model::NodeKind;
using E = ompp::trace::Event;

const RegionRecord& region_of(POMP2_Region_handle* handle, const char* ctc, K fallback) {
    return RegionRegistry::resolve(handle, ctc, fallback);
}

// The common case of an event, checked in one go: measurement on, this
// thread seen before, the handle's region registered.  Anything else (a
// null thread) takes the event's general path, out of line, so that the
// common one keeps nothing across a call and ends in a tail call into the
// thread's state.  A trace being recorded is the common case too: the event
// tests recording() just before the thread's operation and, if so, jumps
// to the event's traced form, out of line (the record, and the call a full
// chunk makes, would otherwise cost the untraced event registers and a
// stack frame).  Where that test would keep one more register live, the
// event uses untraced_common_case() instead.
struct CommonCase {
    Measurement* measurement = nullptr;
    ThreadState* thread = nullptr;
    const RegionRecord* region = nullptr;
};

template <bool Untraced>
[[gnu::always_inline]] inline CommonCase checked_case(POMP2_Region_handle* handle) {
    Measurement* m = ompp::adapter::g_gate.load(std::memory_order_acquire);
    if (m == nullptr || handle == nullptr || (Untraced && ompp::trace::recording())) [[unlikely]] return {};
    const auto* region = static_cast<const RegionRecord*>(__atomic_load_n(handle, __ATOMIC_ACQUIRE));
    if (region == nullptr) [[unlikely]] return {};
    return {m, m->known_thread(), region};
}

[[gnu::always_inline]] inline CommonCase common_case(POMP2_Region_handle* handle) {
    return checked_case<false>(handle);
}

// The common case of an event whose traced form takes the general path: a
// team's begin (once per thread and team) and a task's creation, whose
// untraced common case would keep one more register live (a push and a
// pop) if it tested recording() after the thread's lookup.
[[gnu::always_inline]] inline CommonCase untraced_common_case(POMP2_Region_handle* handle) {
    return checked_case<true>(handle);
}

// An operation of the common case (or of a general path whose untraced
// form a call to traced() would cost registers: a join) while a trace is
// recorded: the record, then the operation, at `now`.  (The traced forms
// take what they need in registers, not a CommonCase in memory, so that
// the jump to them needs no stack frame either.)
template <bool Slowly = false, typename Operation>
[[gnu::noinline]] void traced_operation(ThreadState& thread, const RegionRecord& region, E event,
                                        ompp::core::Ticks now, Operation operation) {
    if (!recorded<Slowly>(thread, event, region, now)) [[unlikely]]
        return traced_operation<true>(thread, region, event, now, operation);
    operation(thread, region, now);
}

// One event on a construct: gate, region, the thread's operation at now,
// traced as `event`.  The common case tail-calls the operation.
template <typename Operation>
[[gnu::noinline]] void on_region_in_general(POMP2_Region_handle* handle, const char* ctc, K fallback, E event,
                                            Operation operation) {
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    const RegionRecord& region = region_of(handle, ctc, fallback);
    if (!measured(region.info.kind)) return;
    ThreadState& thread = m->this_thread();
    // Traced first: the operation stays a tail call, nothing kept across it.
    const auto now = traced(thread, event, region, m->now());
    operation(thread, region, now);
}

// The common case reads a clock that needs no call (the TSC; a manual
// clock in tests), so that it needs no stack frame either.
template <typename Operation>
[[gnu::always_inline]] inline void on_region(POMP2_Region_handle* handle, const char* ctc, K fallback, E event,
                                             Operation operation) {
    if (const CommonCase c = common_case(handle); c.thread != nullptr && measured(c.region->info.kind) &&
                                                  c.measurement->clock().reads_without_call()) [[likely]] {
        const auto now = c.measurement->clock().read_without_call();
        if (ompp::trace::recording()) [[unlikely]]
            return traced_operation(*c.thread, *c.region, event, now, operation);
        return operation(*c.thread, *c.region, now);
    }
    on_region_in_general(handle, ctc, fallback, event, operation);
}

// Constructs without scheduling points.
void enter(POMP2_Region_handle* handle, const char* ctc, K fallback) {
    on_region(handle, ctc, fallback, E::Enter,
              [](ThreadState& t, const RegionRecord& r, auto now) { t.enter(r, now); });
}
void exit(POMP2_Region_handle* handle, K fallback) {
    on_region(handle, nullptr, fallback, E::Leave,
              [](ThreadState& t, const RegionRecord& r, auto now) { t.exit(r, now); });
}
// A construct counted without timing (atomic, flush: timing=count).  A trace
// still gets its enter and leave, at one clock read.  The common case is
// count(), below.
[[gnu::noinline]] void count_traced(Measurement& m, ThreadState& thread, const RegionRecord& region) {
    const auto now = m.now();
    record(thread, E::Enter, region, now);
    record(thread, E::Leave, region, now);
    thread.count(region);
}
[[gnu::noinline]] void count_in_general(POMP2_Region_handle* handle, const char* ctc, K fallback) {
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    const RegionRecord& region = region_of(handle, ctc, fallback);
    if (!measured(region.info.kind)) return;
    ThreadState& thread = m->this_thread();
    if (ompp::trace::recording()) [[unlikely]] return count_traced(*m, thread, region);
    thread.count(region);
}
void begin_body(POMP2_Region_handle* handle, K fallback) {
    on_region(handle, nullptr, fallback, E::BodyBegin,
              [](ThreadState& t, const RegionRecord& r, auto now) { t.begin_body(r, now); });
}
void end_body(POMP2_Region_handle* handle, K fallback) {
    on_region(handle, nullptr, fallback, E::BodyEnd,
              [](ThreadState& t, const RegionRecord& r, auto now) { t.end_body(r, now); });
}

// Scheduling points: the old-task variable gets the current task on entry
// and brings it back on exit, where the thread may have switched tasks.
void enter_scheduling_point(POMP2_Region_handle* handle, POMP2_Task_handle* old_task, const char* ctc, K fallback,
                            NK node_kind = NK::Region) {
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] {
        if (old_task != nullptr) *old_task = 0;
        return;
    }
    ThreadState& thread = m->this_thread();
    const RegionRecord& region = region_of(handle, ctc, fallback);
    if (!measured(region.info.kind)) {
        if (old_task != nullptr) *old_task = thread.current_task();
        return;
    }
    const auto now = m->now();
    const auto enter = [old_task, node_kind](ThreadState& t, const RegionRecord& r, ompp::core::Ticks at) {
        t.enter_scheduling_point(r, at, old_task, node_kind);
    };
    if (ompp::trace::recording()) [[unlikely]]
        return traced_operation(thread, region, node_kind == NK::ImplicitBarrier ? E::BarrierEnter : E::Enter, now,
                                enter);
    enter(thread, region, now);
}

void count(POMP2_Region_handle* handle, const char* ctc, K fallback) {
    if (const CommonCase c = common_case(handle); c.thread != nullptr && measured(c.region->info.kind)) [[likely]] {
        if (ompp::trace::recording()) [[unlikely]] return count_traced(*c.measurement, *c.thread, *c.region);
        return c.thread->count(*c.region);
    }
    count_in_general(handle, ctc, fallback);
}

// The traced forms take what is constant at their call sites (the node's
// kind, the task's construct) as template arguments: one form each, with
// its event and operation fixed, keeps fewer registers.  Their arguments
// come in the order of the thread's operation they tail-call, the
// measurement (for the clock) last, so that few need moving.
template <NK Kind, bool Slowly = false>
[[gnu::noinline]] void exit_traced_scheduling_point(ThreadState& thread, const RegionRecord& region,
                                                    POMP2_Task_handle old_task, Measurement& m) {
    recorded_now<Slowly>(
        m, thread, Kind == NK::ImplicitBarrier ? E::BarrierLeave : E::SchedulingLeave, region,
        static_cast<std::uint64_t>(old_task),
        [&](ompp::core::Ticks now) { thread.exit_scheduling_point(region, old_task, now, Kind); },
        [&] { exit_traced_scheduling_point<Kind, true>(thread, region, old_task, m); });
}

// The entry of a scheduling point while a trace is recorded, as `event`
// with `value`: a task's creation and a taskwait, which tracing measures
// whatever their clauses or tasks (their untraced common cases may count
// them without a clock).
template <E Event, bool Slowly = false>
[[gnu::noinline]] void enter_traced_scheduling_point(ThreadState& thread, const RegionRecord& region,
                                                     std::uint64_t value, POMP2_Task_handle* old_task,
                                                     Measurement& m) {
    recorded_now<Slowly>(
        m, thread, Event, region, value,
        [&](ompp::core::Ticks now) { thread.enter_scheduling_point(region, now, old_task); },
        [&] { enter_traced_scheduling_point<Event, true>(thread, region, value, old_task, m); });
}

[[gnu::noinline]] void exit_scheduling_point_in_general(POMP2_Region_handle* handle, POMP2_Task_handle old_task,
                                                        K fallback, NK node_kind) {
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    ThreadState& thread = m->this_thread();
    const auto read = m->now();
    const RegionRecord& region = region_of(handle, nullptr, fallback);
    const bool measure = measured(region.info.kind);
    const auto now = traced(thread, !measure                          ? E::Resume
                                    : node_kind == NK::ImplicitBarrier ? E::BarrierLeave
                                                                       : E::SchedulingLeave,
                            region, read, static_cast<std::uint64_t>(old_task));
    if (!measure) return thread.resume(old_task, now);
    thread.exit_scheduling_point(region, old_task, now, node_kind);
}

[[gnu::always_inline]] inline void exit_scheduling_point(POMP2_Region_handle* handle, POMP2_Task_handle old_task,
                                                         K fallback, NK node_kind = NK::Region) {
    if (const CommonCase c = common_case(handle); c.thread != nullptr && measured(c.region->info.kind)) [[likely]] {
        if (ompp::trace::recording()) [[unlikely]] {
            if (node_kind == NK::ImplicitBarrier)
                return exit_traced_scheduling_point<NK::ImplicitBarrier>(*c.thread, *c.region, old_task, *c.measurement);
            return exit_traced_scheduling_point<NK::Region>(*c.thread, *c.region, old_task, *c.measurement);
        }
        return c.thread->exit_scheduling_point(*c.region, old_task, c.measurement->now(), node_kind);
    }
    exit_scheduling_point_in_general(handle, old_task, fallback, node_kind);
}

// A task construct's task run inside its creation needs no clock
// (ThreadState::construct_task_begin), except for its record; a taskloop's
// tasks always run apart from the taskloop's own events.  Traced, the
// record comes first, so that the operation stays a tail call.
template <K Fallback, bool Slowly = false>
[[gnu::noinline]] void task_begin_traced(ThreadState& thread, const RegionRecord& region, POMP2_Task_handle task,
                                        Measurement& m) {
    recorded_now<Slowly>(
        m, thread, E::TaskBegin, region, static_cast<std::uint64_t>(task),
        [&](ompp::core::Ticks now) {
            if (Fallback == K::Task) return thread.construct_task_begin(region, task);
            thread.task_begin(region, task, now);
        },
        [&] { task_begin_traced<Fallback, true>(thread, region, task, m); });
}

[[gnu::always_inline]] inline void task_begin_of(const CommonCase& c, POMP2_Task_handle task, K fallback) {
    if (ompp::trace::recording()) [[unlikely]] {
        if (fallback == K::Task) return task_begin_traced<K::Task>(*c.thread, *c.region, task, *c.measurement);
        return task_begin_traced<K::Taskloop>(*c.thread, *c.region, task, *c.measurement);
    }
    if (fallback == K::Task) return c.thread->construct_task_begin(*c.region, task);
    return c.thread->task_begin(*c.region, task, c.measurement->now());
}

[[gnu::noinline]] void task_begin_in_general(POMP2_Region_handle* handle, POMP2_Task_handle task, K fallback) {
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    ThreadState& thread = m->this_thread();
    task_begin_of({m, &thread, &region_of(handle, nullptr, fallback)}, task, fallback);
}

[[gnu::always_inline]] inline void task_begin(POMP2_Region_handle* handle, POMP2_Task_handle task, K fallback) {
    if (const CommonCase c = common_case(handle); c.thread != nullptr) [[likely]]
        return task_begin_of(c, task, fallback);
    task_begin_in_general(handle, task, fallback);
}

template <K Fallback, bool Slowly = false>
[[gnu::noinline]] void task_end_traced(ThreadState& thread, const RegionRecord& region, Measurement& m) {
    recorded_now<Slowly>(
        m, thread, E::TaskEnd, region, 0,
        [&](ompp::core::Ticks now) {
            if (Fallback == K::Task) return thread.construct_task_end(region);
            thread.task_end(region, now);
        },
        [&] { task_end_traced<Fallback, true>(thread, region, m); });
}

[[gnu::always_inline]] inline void task_end_of(const CommonCase& c, K fallback) {
    if (ompp::trace::recording()) [[unlikely]] {
        if (fallback == K::Task) return task_end_traced<K::Task>(*c.thread, *c.region, *c.measurement);
        return task_end_traced<K::Taskloop>(*c.thread, *c.region, *c.measurement);
    }
    if (fallback == K::Task) return c.thread->construct_task_end(*c.region);
    return c.thread->task_end(*c.region, c.measurement->now());
}

[[gnu::noinline]] void task_end_in_general(POMP2_Region_handle* handle, K fallback) {
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    ThreadState& thread = m->this_thread();
    task_end_of({m, &thread, &region_of(handle, nullptr, fallback)}, fallback);
}

[[gnu::always_inline]] inline void task_end(POMP2_Region_handle* handle, K fallback) {
    if (const CommonCase c = common_case(handle); c.thread != nullptr) [[likely]] return task_end_of(c, fallback);
    task_end_in_general(handle, fallback);
}

// The instrumented code tests the new-task handle against the public value.
static_assert(ompp::core::kUntimedTask == POMP2_UNTIMED_TASK);
// ... and the old-task value against POMP2_UNTIMED_DONE, for every flag.
static_assert([] {
    using namespace ompp::core;
    for (const TaskHandle flags :
         {TaskHandle{0}, kUntimedBit, kUntimedBit | kUntimedDoneBit, kUntimedBit | kUntimedFinalBit})
        for (const TaskHandle task : {TaskHandle{0}, TaskHandle{5} << 40 | 7, TaskHandle{5} << 40 | 7 | kFinalTaskBit})
            if (is_untimed_done(task | flags) != POMP2_UNTIMED_DONE(task | flags)) return false;
    return true;
}());

// `clauses`: whether the instrumented code passes the task's if and final
// clauses (POMP2_Task_create_begin_final), so that a task they make run at
// once inside its creation can be counted without a clock, and the slot of
// the thread's untimed cache it counts the next such tasks in itself
// (POMP2_Task_create_begin_fast).
struct TaskClauses {
    bool passed;
    ompp::core::TaskClauseValues values{};
    const POMP2_Region_handle* untimed_key = nullptr;
};

[[gnu::always_inline]] inline void create_measured_task(Measurement& m, ThreadState& thread, const RegionRecord& region,
                                                        POMP2_Task_handle* new_task, POMP2_Task_handle* old_task,
                                                        TaskClauses clauses) {
    if (clauses.passed) return thread.create_task(region, clauses.values, new_task, old_task, clauses.untimed_key);
    const TaskHandle task = thread.new_task_handle();
    if (new_task != nullptr) *new_task = task;
    const auto now = traced(thread, E::TaskCreate, region, m.now(), static_cast<std::uint64_t>(task));
    thread.enter_scheduling_point(region, now, old_task);
}

[[gnu::noinline]] void create_task_in_general(POMP2_Region_handle* handle, POMP2_Task_handle* new_task,
                                              POMP2_Task_handle* old_task, const char* ctc, TaskClauses clauses) {
    // A trace has every task: tracing measures them as OPARI2's output is
    // measured, whatever their clauses.
    if (const CommonCase c = common_case(handle); c.thread != nullptr && ompp::trace::recording()) {
        const TaskHandle task = c.thread->new_task_handle();
        if (new_task != nullptr) *new_task = task;
        return enter_traced_scheduling_point<E::TaskCreate>(*c.thread, *c.region, static_cast<std::uint64_t>(task),
                                                            old_task, *c.measurement);
    }
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] {
        static std::atomic<POMP2_Task_handle> unmeasured{0};
        if (new_task != nullptr) *new_task = -(++unmeasured);
        if (old_task != nullptr) *old_task = 0;
        return;
    }
    ThreadState& thread = m->this_thread();
    const RegionRecord& region = region_of(handle, ctc, K::Task);
    if (clauses.passed && ompp::trace::recording()) [[unlikely]] clauses = {};
    create_measured_task(*m, thread, region, new_task, old_task, clauses);
}

[[gnu::always_inline]] inline void create_task(POMP2_Region_handle* handle, POMP2_Task_handle* new_task,
                                               POMP2_Task_handle* old_task, const char* ctc, TaskClauses clauses) {
    if (const CommonCase c = untraced_common_case(handle); c.thread != nullptr) [[likely]]
        return create_measured_task(*c.measurement, *c.thread, *c.region, new_task, old_task, clauses);
    create_task_in_general(handle, new_task, old_task, ctc, clauses);
}

void end_task_creation(POMP2_Region_handle* handle, POMP2_Task_handle old_task) {
    if (ompp::core::is_untimed(old_task)) {
        if (Measurement* m = gate()) m->this_thread().end_untimed_task(old_task);
        return;
    }
    if (const CommonCase c = untraced_common_case(handle); c.thread != nullptr && measured(c.region->info.kind))
        [[likely]]
        return c.thread->end_task_creation(*c.region, old_task);
    exit_scheduling_point(handle, old_task, K::Task);
}

template <typename Hook, typename Event>
[[gnu::noinline]] void hook_then(Hook hook, Event event) {
    hook();
    event();
}

// An event with deadlock detection's hook before it, inlined, as a call
// would cost more than the hook (a few stores): `fast` is the hook without
// any call, false (having done nothing) when it needs one; then the full
// `hook` runs out of line with the event.  No path keeps a register across
// a call, so that with detection off the event keeps its tail call and
// pays only the test of watching().  The fast hooks read the region from
// the handle: instrumented code always passes its handle's address, never
// null.
template <typename Fast, typename Hook, typename Event>
[[gnu::always_inline]] inline void watched(Fast fast, Hook hook, Event event) {
    if (watching()) [[unlikely]] {
        if (fast()) [[likely]] return event();
        return hook_then(hook, event);
    }
    event();
}

// A critical event.
template <ompp::deadlock::Step S, typename Event>
[[gnu::always_inline]] inline void critical_watched(POMP2_Region_handle* h, const char* ctc, Event event) {
    using ompp::deadlock::HeldKind;
    watched(
        [=] {
            const RegionRecord* critical = RegionRegistry::known(*h);
            return critical != nullptr && ompp::deadlock::try_publish<S, HeldKind::Critical>(critical);
        },
        [=] { ompp::deadlock::publish_slowly<S, HeldKind::Critical>(&region_of(h, ctc, K::Critical)); }, event);
}

// A fork while a trace is recorded, out of line: a call to traced() would
// cost the untraced fork registers.
[[gnu::noinline]] void fork_traced(ThreadState& thread, const RegionRecord& region, ompp::core::Ticks now,
                                   std::uint64_t key, std::uint32_t team_size, POMP2_Task_handle* old_task) {
    record(thread, E::Fork, region, now, team_size);
    thread.fork(region, now, key, team_size, old_task);
}

// The forking thread's level is asked of the OpenMP runtime once for the
// team's key, the nesting limit and, with deadlock detection, its hook.
template <bool Watched>
void parallel_fork(POMP2_Region_handle* handle, int if_clause, int num_threads, POMP2_Task_handle* old_task,
                   const char ctc_string[]) {
    const int level = ompp::adapter::omp_level();
    std::uint64_t place = 0;
    if constexpr (Watched) ompp::deadlock::team_forked(place = ompp::adapter::thread_identity(level));
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] {
        if (old_task != nullptr) *old_task = 0;
        return;
    }
    ThreadState& thread = m->this_thread();
    if (omp_get_num_threads == nullptr && if_clause != 0 && num_threads > 0) {
        m->note_team_size(static_cast<std::uint32_t>(num_threads));
    }
    // A team of one has no workers to find the fork: no key, nothing published.
    // num_threads is the instrumenter's estimate (omp_get_max_threads()), not
    // the construct's num_threads clause, which is not evaluated twice: at
    // OMP_NUM_THREADS=1 a num_threads(2) team still has a worker, so only a
    // false if clause or exhausted nesting make a team of one for sure.
    const bool alone = if_clause == 0 || ompp::adapter::nesting_exhausted(level);
    const RegionRecord& region = region_of(handle, ctc_string, K::Parallel);
    const auto now = m->now();
    const std::uint32_t team_size = alone ? 1U : static_cast<std::uint32_t>(num_threads > 1 ? num_threads : 0);
    const auto key = [&] { return alone ? 0 : Watched ? place : ompp::adapter::thread_identity(level); };
    if (ompp::trace::recording()) [[unlikely]] return fork_traced(thread, region, now, key(), team_size, old_task);
    thread.fork(region, now, key(), team_size, old_task);
}

// A worker's place in its team (without a runtime: one team level, no number).
struct TeamPlace {
    int level = 0;
    int thread_num = -1;
    // The identity of the thread that forked the team, under which it
    // published the fork.
    std::uint64_t team_key() const { return ompp::adapter::thread_identity(level > 0 ? level - 1 : 0); }
    // The fork's key for ThreadState::parallel_begin: 0 for the master, which
    // forked the team itself.
    std::uint64_t forker(std::uint64_t key) const { return thread_num == 0 ? 0 : key; }
};

TeamPlace team_place() {
    return {ompp::adapter::omp_level(), omp_get_thread_num != nullptr ? omp_get_thread_num() : -1};
}

// A thread that begins a team it forked itself (the master) asks the OpenMP
// runtime nothing; any other asks for its place, and its number picks its
// member of the team's record (ThreadState::parallel_begin, which notes the
// team's size as the number plus one: every thread of a team begins it, so
// the last one's is the size).
// `Worker`: parallel_begin_as_master found the thread not to be the
// team's master already, so the begin skips that test.
template <TeamBegin B = TeamBegin::Alone, bool Worker = false>
void begin_team_at(ThreadState& thread, const RegionRecord& region, ompp::core::Ticks now, const TeamPlace& place,
                   std::uint64_t forker) {
    const ompp::core::TeamPosition position{forker, place.level,
                                            static_cast<std::uint32_t>(std::max(place.thread_num, 0))};
    if constexpr (Worker) {
        thread.parallel_begin_as_worker<B>(region, now, position);
    } else {
        thread.parallel_begin<B>(region, now, position);
    }
    traced(thread, E::TeamBegin, region, now, forker == 0 ? thread.id() : thread.parent_thread());
}

ThreadState& worker_thread(Measurement& m, const TeamPlace& place) {
    return m.this_worker([level = place.level] { return ompp::adapter::team_position(level); });
}

template <TeamBegin B = TeamBegin::Alone>
[[gnu::noinline]] void begin_team_in_general(Measurement& m, const RegionRecord& region, ompp::core::Ticks now) {
    const TeamPlace place = team_place();
    begin_team_at<B>(worker_thread(m, place), region, now, place, place.forker(place.team_key()));
}

template <TeamBegin B = TeamBegin::Alone>
[[gnu::noinline]] void begin_team_as_worker(ThreadState& thread, const RegionRecord& region, ompp::core::Ticks now) {
    const TeamPlace place = team_place();
    begin_team_at<B, true>(thread, region, now, place, place.forker(place.team_key()));
}

// The common case's begin of a team at `now`: the master's, or a worker's
// out of line.
template <TeamBegin B = TeamBegin::Alone>
[[gnu::always_inline]] inline void begin_team(const CommonCase& c, ompp::core::Ticks now) {
    if (!c.thread->parallel_begin_as_master<B>(*c.region, now)) begin_team_as_worker<B>(*c.thread, *c.region, now);
}

void parallel_begin(POMP2_Region_handle* handle) {
    if (const CommonCase c = untraced_common_case(handle); c.thread != nullptr) [[likely]]
        return begin_team(c, c.measurement->now());
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    begin_team_in_general(*m, region_of(handle, nullptr, K::Parallel), m->now());
}

// With deadlock detection, the thread's place and team size are asked of the
// OpenMP runtime once, for the hook and the event.
void parallel_begin_watched(POMP2_Region_handle* handle) {
    const TeamPlace place = team_place();
    const int team_size = omp_get_num_threads != nullptr ? omp_get_num_threads() : 0;
    const std::uint64_t team_key = place.team_key();
    ompp::deadlock::team_begin({&region_of(handle, nullptr, K::Parallel), team_key, place.level,
                                place.thread_num > 0 ? place.thread_num : 0, team_size > 0 ? team_size : 1});
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    begin_team_at(worker_thread(*m, place), region_of(handle, nullptr, K::Parallel), m->now(), place,
                  place.forker(team_key));
}

// A combined construct's fused calls (pomp2_ompp.h): the common case (the
// thread and the worksharing construct's region known, no trace, no
// deadlock detection) at one clock read; anything else as the two events.
const RegionRecord* measured_construct(POMP2_Region_handle* handle) {
    const RegionRecord* construct = handle != nullptr ? RegionRegistry::known(*handle) : nullptr;
    return construct != nullptr && measured(construct->info.kind) ? construct : nullptr;
}

void begin_team_entering(POMP2_Region_handle* parallel, POMP2_Region_handle* handle, const char* ctc, K fallback) {
    if (!watching()) [[likely]] {
        const CommonCase c = untraced_common_case(parallel);
        const RegionRecord* construct = measured_construct(handle);
        if (c.thread != nullptr && construct != nullptr) [[likely]] {
            const auto now = c.measurement->now();
            // The part on the region's own handle (all but `parallel loop`):
            // one event, which may leave the part out (ThreadState::parallel_begin).
            if (construct == c.region) return begin_team<TeamBegin::WithPart>(c, now);
            begin_team(c, now);
            return c.thread->enter(*construct, now);
        }
    }
    POMP2_Parallel_begin(parallel);
    enter(handle, ctc, fallback);
}

void exit_ending_team(POMP2_Region_handle* handle, POMP2_Region_handle* parallel, K fallback) {
    if (!watching()) [[likely]] {
        const CommonCase c = untraced_common_case(parallel);
        const RegionRecord* construct = measured_construct(handle);
        if (c.thread != nullptr && construct != nullptr) [[likely]] {
            return c.thread->exit_part_and_end_team(*construct, *c.region, c.measurement->now());
        }
    }
    on_region_in_general(handle, nullptr, fallback, E::Leave,
                         [](ThreadState& t, const RegionRecord& r, auto now) { t.exit_part(r, now); });
    POMP2_Parallel_end(parallel);
}

}  // namespace

extern "C" {

OMPP_API void POMP2_Assign_handle(POMP2_Region_handle* handle, const char ctc_string[]) {
    region_of(handle, ctc_string, K::UserRegion);
}

OMPP_API void POMP2_USER_Assign_handle(POMP2_USER_Region_handle* handle, const char ctc_string[]) {
    region_of(handle, ctc_string, K::UserRegion);
}

OMPP_API POMP2_Task_handle POMP2_Get_new_task_handle(void) {
    Measurement* m = gate();
    if (m == nullptr) return 0;
    return m->this_thread().new_task_handle();
}

OMPP_API int POMP2_Lib_get_max_threads(void) { return omp_get_max_threads != nullptr ? omp_get_max_threads() : 1; }

// Lifecycle and user regions (pomp2_user_lib.h).
OMPP_API void POMP2_Init(void) { ompp::adapter::start(); }
OMPP_API void POMP2_Finalize(void) { ompp::adapter::finalise(); }
OMPP_API void POMP2_On(void) { ompp::adapter::switch_on(true); }
OMPP_API void POMP2_Off(void) { ompp::adapter::switch_on(false); }
OMPP_API void POMP2_Begin(POMP2_USER_Region_handle* handle, const char ctc_string[]) {
    enter(handle, ctc_string, K::UserRegion);
}
OMPP_API void POMP2_End(POMP2_USER_Region_handle* handle) { exit(handle, K::UserRegion); }

// A user region is its name, which may be built at run time: the call
// site's handle only caches the region of the name it saw last.
OMPP_API void POMP2_USER_Begin_named(POMP2_Region_handle* handle, const char* name, const char* file, int line) {
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    const char* text = name != nullptr ? name : "";
    const auto* region = handle != nullptr
                             ? static_cast<const RegionRecord*>(__atomic_load_n(handle, __ATOMIC_ACQUIRE))
                             : nullptr;
    if (region == nullptr || *region->info.name != text) [[unlikely]] {
        region = &RegionRegistry::instance().user_region(text, file != nullptr ? file : "", line);
        if (handle != nullptr) __atomic_store_n(handle, const_cast<RegionRecord*>(region), __ATOMIC_RELEASE);
    }
    if (!measured(K::UserRegion)) return;
    ThreadState& thread = m->this_thread();
    const auto now = traced(thread, E::Enter, *region, m->now());
    thread.enter(*region, now);
}

OMPP_API void POMP2_USER_End_named(const char* name, const char* file, int line) {
    Measurement* m = gate();
    if (m == nullptr || !measured(K::UserRegion)) [[unlikely]] return;
    ThreadState& thread = m->this_thread();
    const auto now = m->now();
    const char* text = name != nullptr ? name : "";
    thread.exit_named(text, file != nullptr ? file : "", line, now);
    if (ompp::trace::recording()) [[unlikely]] {
        traced(thread, E::Leave, RegionRegistry::instance().user_region(text, file != nullptr ? file : "", line), now);
    }
}

OMPP_API void POMP2_USER_Snapshot(const char* label) {
    if (Measurement* m = gate()) ompp::analyses::on_user_snapshot(*m, label != nullptr ? label : "");
}

// Parallel regions.
OMPP_API void POMP2_Parallel_fork(POMP2_Region_handle* handle, int if_clause, int num_threads,
                                  POMP2_Task_handle* old_task, const char ctc_string[]) {
    if (watching()) [[unlikely]] return parallel_fork<true>(handle, if_clause, num_threads, old_task, ctc_string);
    parallel_fork<false>(handle, if_clause, num_threads, old_task, ctc_string);
}

OMPP_API void POMP2_Parallel_begin(POMP2_Region_handle* handle) {
    if (watching()) [[unlikely]] return parallel_begin_watched(handle);
    parallel_begin(handle);
}

OMPP_API void POMP2_Parallel_end(POMP2_Region_handle* handle) {
    if (watching() && !ompp::deadlock::try_team_end()) [[unlikely]] ompp::deadlock::team_end();
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    ThreadState& thread = m->this_thread();
    const RegionRecord& region = region_of(handle, nullptr, K::Parallel);
    const auto now = m->now();
    const auto end = [](ThreadState& t, const RegionRecord& r, ompp::core::Ticks at) { t.parallel_end(r, at); };
    if (ompp::trace::recording()) [[unlikely]] return traced_operation(thread, region, E::TeamEnd, now, end);
    end(thread, region, now);
}

OMPP_API void POMP2_Parallel_join(POMP2_Region_handle* handle, POMP2_Task_handle old_task) {
    Measurement* m = gate();
    if (m == nullptr) [[unlikely]] return;
    ThreadState& thread = m->this_thread();
    const auto now = m->now();
    const RegionRecord& region = region_of(handle, nullptr, K::Parallel);
    const auto join = [old_task](ThreadState& t, const RegionRecord& r, ompp::core::Ticks at) {
        t.join(r, at, old_task);
    };
    if (ompp::trace::recording()) [[unlikely]] return traced_operation(thread, region, E::Join, now, join);
    join(thread, region, now);
}

OMPP_API void POMP2_Parallel_begin_for_enter(POMP2_Region_handle* parallel, POMP2_Region_handle* h,
                                            const char ctc[]) {
    begin_team_entering(parallel, h, ctc, K::Loop);
}
OMPP_API void POMP2_For_exit_parallel_end(POMP2_Region_handle* h, POMP2_Region_handle* parallel) {
    exit_ending_team(h, parallel, K::Loop);
}
OMPP_API void POMP2_Parallel_begin_sections_enter(POMP2_Region_handle* parallel, POMP2_Region_handle* h,
                                                 const char ctc[]) {
    begin_team_entering(parallel, h, ctc, K::Sections);
}
OMPP_API void POMP2_Sections_exit_parallel_end(POMP2_Region_handle* h, POMP2_Region_handle* parallel) {
    exit_ending_team(h, parallel, K::Sections);
}

// Synchronisation.
OMPP_API void POMP2_Atomic_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Atomic); }
OMPP_API void POMP2_Atomic_exit(POMP2_Region_handle* h) { exit(h, K::Atomic); }
OMPP_API void POMP2_Flush_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Flush); }
OMPP_API void POMP2_Flush_exit(POMP2_Region_handle* h) { exit(h, K::Flush); }
OMPP_API void POMP2_Atomic_count(POMP2_Region_handle* h, const char ctc[]) { count(h, ctc, K::Atomic); }
OMPP_API void POMP2_Flush_count(POMP2_Region_handle* h, const char ctc[]) { count(h, ctc, K::Flush); }
OMPP_API void POMP2_Barrier_enter(POMP2_Region_handle* h, POMP2_Task_handle* old_task, const char ctc[]) {
    watched([=] { return ompp::deadlock::try_barrier_waiting(RegionRegistry::known(*h)); },
            [=] { ompp::deadlock::barrier_waiting(region_of(h, ctc, K::Barrier)); },
            [=] { enter_scheduling_point(h, old_task, ctc, K::Barrier); });
}
// The barriers' exits are inlined, as they were before their common case
// had a traced form, whatever GCC's inliner makes of its size.
OMPP_API void POMP2_Barrier_exit(POMP2_Region_handle* h, POMP2_Task_handle old_task) {
    watched(ompp::deadlock::try_barrier_passed, ompp::deadlock::barrier_passed,
            [=]() __attribute__((always_inline)) { exit_scheduling_point(h, old_task, K::Barrier); });
}
OMPP_API void POMP2_Implicit_barrier_enter(POMP2_Region_handle* h, POMP2_Task_handle* old_task) {
    watched([=] { return ompp::deadlock::try_barrier_waiting(RegionRegistry::known(*h)); },
            [=] { ompp::deadlock::barrier_waiting(region_of(h, nullptr, K::Parallel)); },
            [=] { enter_scheduling_point(h, old_task, nullptr, K::Parallel, NK::ImplicitBarrier); });
}
OMPP_API void POMP2_Implicit_barrier_exit(POMP2_Region_handle* h, POMP2_Task_handle old_task) {
    watched(ompp::deadlock::try_barrier_passed, ompp::deadlock::barrier_passed,
            [=]() __attribute__((always_inline)) {
                exit_scheduling_point(h, old_task, K::Parallel, NK::ImplicitBarrier);
            });
}
OMPP_API void POMP2_Critical_enter(POMP2_Region_handle* h, const char ctc[]) {
    critical_watched<ompp::deadlock::Step::Wait>(h, ctc, [=] { enter(h, ctc, K::Critical); });
}
OMPP_API void POMP2_Critical_exit(POMP2_Region_handle* h) { exit(h, K::Critical); }
OMPP_API void POMP2_Critical_begin(POMP2_Region_handle* h) {
    critical_watched<ompp::deadlock::Step::Hold>(h, nullptr, [=] { begin_body(h, K::Critical); });
}
OMPP_API void POMP2_Critical_end(POMP2_Region_handle* h) {
    critical_watched<ompp::deadlock::Step::Release>(h, nullptr, [=] { end_body(h, K::Critical); });
}
OMPP_API void POMP2_Ordered_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Ordered); }
OMPP_API void POMP2_Ordered_exit(POMP2_Region_handle* h) { exit(h, K::Ordered); }
OMPP_API void POMP2_Ordered_begin(POMP2_Region_handle* h) { begin_body(h, K::Ordered); }
OMPP_API void POMP2_Ordered_end(POMP2_Region_handle* h) { end_body(h, K::Ordered); }

// Worksharing.
OMPP_API void POMP2_For_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Loop); }
OMPP_API void POMP2_For_exit(POMP2_Region_handle* h) { exit(h, K::Loop); }
OMPP_API void POMP2_Master_begin(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Master); }
OMPP_API void POMP2_Master_end(POMP2_Region_handle* h) { exit(h, K::Master); }
OMPP_API void POMP2_Masked_begin(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Masked); }
OMPP_API void POMP2_Masked_end(POMP2_Region_handle* h) { exit(h, K::Masked); }
OMPP_API void POMP2_Sections_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Sections); }
OMPP_API void POMP2_Sections_exit(POMP2_Region_handle* h) { exit(h, K::Sections); }
// OPARI2 passes the sections' handle (a sectT/sectC phase of it); ompp's
// native mode may give a section its own handle (its own node).
OMPP_API void POMP2_Section_begin(POMP2_Region_handle* h, const char ctc[]) {
    if (region_of(h, ctc, K::Section).info.kind == K::Section) {
        on_region(h, ctc, K::Section, E::Enter,
                  [](ThreadState& t, const RegionRecord& r, auto now) { t.section_begin(r, now); });
    } else {
        begin_body(h, K::Sections);
    }
}
OMPP_API void POMP2_Section_end(POMP2_Region_handle* h) {
    if (region_of(h, nullptr, K::Section).info.kind == K::Section) {
        on_region(h, nullptr, K::Section, E::Leave,
                  [](ThreadState& t, const RegionRecord& r, auto now) { t.section_end(r, now); });
    } else {
        end_body(h, K::Sections);
    }
}
OMPP_API void POMP2_Single_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Single); }
OMPP_API void POMP2_Single_exit(POMP2_Region_handle* h) { exit(h, K::Single); }
OMPP_API void POMP2_Single_begin(POMP2_Region_handle* h) { begin_body(h, K::Single); }
OMPP_API void POMP2_Single_end(POMP2_Region_handle* h) { end_body(h, K::Single); }
OMPP_API void POMP2_Workshare_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Workshare); }
OMPP_API void POMP2_Workshare_exit(POMP2_Region_handle* h) { exit(h, K::Workshare); }
OMPP_API void POMP2_Scope_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Scope); }
OMPP_API void POMP2_Scope_exit(POMP2_Region_handle* h) { exit(h, K::Scope); }
OMPP_API void POMP2_Cancel_enter(POMP2_Region_handle* h, const char ctc[]) { enter(h, ctc, K::Cancel); }
OMPP_API void POMP2_Cancel_exit(POMP2_Region_handle* h) { exit(h, K::Cancel); }
OMPP_API void POMP2_Cancellation_point_enter(POMP2_Region_handle* h, const char ctc[]) {
    enter(h, ctc, K::CancellationPoint);
}
OMPP_API void POMP2_Cancellation_point_exit(POMP2_Region_handle* h) { exit(h, K::CancellationPoint); }

// Tasks.
// OPARI2's pomp2_if is not passed on: OPARI2's own output leaves out every
// event of a task whose if clause is false, ompp's passes 1.
OMPP_API void POMP2_Task_create_begin(POMP2_Region_handle* h, POMP2_Task_handle* new_task,
                                      POMP2_Task_handle* old_task, int, const char ctc[]) {
    create_task(h, new_task, old_task, ctc, {.passed = false});
}
OMPP_API void POMP2_Task_create_begin_final(POMP2_Region_handle* h, POMP2_Task_handle* new_task,
                                            POMP2_Task_handle* old_task, int pomp2_if, int pomp2_final,
                                            const char ctc[]) {
    create_task(h, new_task, old_task, ctc, {.passed = true, .values = {pomp2_if != 0, pomp2_final != 0}});
}
OMPP_API void POMP2_Task_create_begin_slot(POMP2_Region_handle* h, POMP2_Task_handle* new_task,
                                           POMP2_Task_handle* old_task, int pomp2_if, int pomp2_final,
                                           const char ctc[], unsigned slot) {
    create_task(h, new_task, old_task, ctc,
                {.passed = true,
                 .values = {pomp2_if != 0, pomp2_final != 0, static_cast<std::uint8_t>(slot % POMP2_UNTIMED_SLOTS)},
                 .untimed_key = h});
}
OMPP_API void POMP2_Task_create_end(POMP2_Region_handle* h, POMP2_Task_handle old_task) {
    end_task_creation(h, old_task);
}
// An untimed task (POMP2_UNTIMED_TASK) makes no begin or end call.
OMPP_API void POMP2_Task_begin(POMP2_Region_handle* h, POMP2_Task_handle task) {
    watched(ompp::deadlock::try_task_began, ompp::deadlock::task_began, [=] { task_begin(h, task, K::Task); });
}
OMPP_API void POMP2_Task_end(POMP2_Region_handle* h) {
    watched(ompp::deadlock::try_task_ended, ompp::deadlock::task_ended, [=] { task_end(h, K::Task); });
}
// Untied tasks are profiled like tied ones (OPARI2 makes tasks tied by
// default): the same functions under the untied names.
OMPP_API void POMP2_Untied_task_create_begin(POMP2_Region_handle*, POMP2_Task_handle*, POMP2_Task_handle*, int,
                                             const char[]) __attribute__((alias("POMP2_Task_create_begin")));
OMPP_API void POMP2_Untied_task_create_end(POMP2_Region_handle*, POMP2_Task_handle)
    __attribute__((alias("POMP2_Task_create_end")));
OMPP_API void POMP2_Untied_task_begin(POMP2_Region_handle*, POMP2_Task_handle)
    __attribute__((alias("POMP2_Task_begin")));
OMPP_API void POMP2_Untied_task_end(POMP2_Region_handle*) __attribute__((alias("POMP2_Task_end")));
// A taskwait with nothing to wait for (ThreadState::begin_taskwait)
// is counted without a clock.  Tracing, every taskwait is measured, and
// traced, as a scheduling point.
[[gnu::noinline]] void begin_taskwait_in_general(POMP2_Region_handle* h, POMP2_Task_handle* old_task,
                                                const char ctc[], ompp::core::UntimedSlot slot) {
    Measurement* m = gate();
    const RegionRecord* region = m != nullptr ? &region_of(h, ctc, K::Taskwait) : nullptr;
    if (region == nullptr || !measured(region->info.kind) || ompp::trace::recording()) [[unlikely]] {
        enter_scheduling_point(h, old_task, ctc, K::Taskwait);
        return;
    }
    *old_task = m->this_thread().begin_taskwait(*region, slot);
}
// `slot`: where the instrumented code counts the next untimed ones itself
// (POMP2_Taskwait_begin_fast); none for POMP2_Taskwait_begin.
[[gnu::always_inline]] inline void begin_taskwait(POMP2_Region_handle* h, POMP2_Task_handle* old_task,
                                                  const char ctc[], ompp::core::UntimedSlot slot) {
    if (const CommonCase c = common_case(h); c.thread != nullptr && measured(c.region->info.kind)) [[likely]] {
        if (ompp::trace::recording()) [[unlikely]]
            return enter_traced_scheduling_point<E::Enter>(*c.thread, *c.region, 0, old_task, *c.measurement);
        *old_task = c.thread->begin_taskwait(*c.region, slot);
        return;
    }
    begin_taskwait_in_general(h, old_task, ctc, slot);
}
OMPP_API void POMP2_Taskwait_begin(POMP2_Region_handle* h, POMP2_Task_handle* old_task, const char ctc[]) {
    begin_taskwait(h, old_task, ctc, {});
}
OMPP_API void POMP2_Taskwait_begin_slot(POMP2_Region_handle* h, POMP2_Task_handle* old_task, const char ctc[],
                                        unsigned slot) {
    begin_taskwait(h, old_task, ctc, {h, slot});
}
OMPP_API void POMP2_Taskwait_end(POMP2_Region_handle* h, POMP2_Task_handle old_task) {
    if (ompp::core::is_untimed(old_task)) {
        if (Measurement* m = gate()) m->this_thread().end_taskwait_untimed(old_task);
        return;
    }
    exit_scheduling_point(h, old_task, K::Taskwait);
}
OMPP_API void POMP2_Taskgroup_enter(POMP2_Region_handle* h, POMP2_Task_handle* old_task, const char ctc[]) {
    enter_scheduling_point(h, old_task, ctc, K::Taskgroup);
}
OMPP_API void POMP2_Taskgroup_exit(POMP2_Region_handle* h, POMP2_Task_handle old_task) {
    exit_scheduling_point(h, old_task, K::Taskgroup);
}
OMPP_API void POMP2_Taskgroup_begin(POMP2_Region_handle* h) { begin_body(h, K::Taskgroup); }
OMPP_API void POMP2_Taskgroup_end(POMP2_Region_handle* h) { end_body(h, K::Taskgroup); }
OMPP_API void POMP2_Taskyield_begin(POMP2_Region_handle* h, POMP2_Task_handle* old_task, const char ctc[]) {
    enter_scheduling_point(h, old_task, ctc, K::Taskyield);
}
OMPP_API void POMP2_Taskyield_end(POMP2_Region_handle* h, POMP2_Task_handle old_task) {
    exit_scheduling_point(h, old_task, K::Taskyield);
}
OMPP_API void POMP2_Taskloop_enter(POMP2_Region_handle* h, POMP2_Task_handle* old_task, const char ctc[]) {
    enter_scheduling_point(h, old_task, ctc, K::Taskloop);
    // Its tasks have no creation events; a taskwait after a `nogroup` one
    // may wait for them.
    if (Measurement* m = gate()) m->this_thread().note_unreported_tasks();
}
OMPP_API void POMP2_Taskloop_exit(POMP2_Region_handle* h, POMP2_Task_handle old_task) {
    exit_scheduling_point(h, old_task, K::Taskloop);
}
OMPP_API void POMP2_Taskloop_task_begin(POMP2_Region_handle* h, POMP2_Task_handle task) {
    watched(ompp::deadlock::try_task_began, ompp::deadlock::task_began, [=] { task_begin(h, task, K::Taskloop); });
}
OMPP_API void POMP2_Taskloop_task_end(POMP2_Region_handle* h) {
    watched(ompp::deadlock::try_task_ended, ompp::deadlock::task_ended, [=] { task_end(h, K::Taskloop); });
}

}  // extern "C"
