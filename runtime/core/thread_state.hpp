// thread_state.hpp - one thread's measurement state: its call tree, the task
// instances it is running, and the event operations the POMP2 adapter maps
// its calls to.  Only the owning thread calls the non-const members; the
// trees it builds may be read concurrently (see node.hpp).
//
// Task profiling follows the Score-P algorithm (task-profiling seed, Fig. 12):
// every executing task instance has its own call path (its frame stack) and
// its own suspension clock, and its visits end up in the thread's tree for
// its task construct (a task_root under the thread root); while an explicit
// task runs, the implicit task sits in a task_stub node under the scheduling
// point, which counts the switches and holds the time spent running tasks
// there; a suspended task's open regions do not accumulate time.
//
// Score-P builds a private tree per instance and merges it into the
// construct's tree at completion.  A merge only adds visits, times and
// control-flow counts and takes minima and maxima, so recording each visit
// straight into the construct's tree yields the same tree, without building,
// merging and clearing a tree per instance (most of the per-task cost).
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <pomp2/pomp2_ompp.h>

#include "core/clock.hpp"
#include "core/counter_hook.hpp"
#include "core/node.hpp"
#include "core/region_registry.hpp"
#include "core/thread_cpu.hpp"
#include "model/profile.hpp"

namespace ompp::trace {
struct ThreadBuffer;  // the trace recorder's (trace/recorder.hpp), opaque here
}

namespace ompp::core {

class Measurement;
struct ForkSlot;
using TaskHandle = std::int64_t;

// Task handles are the creating thread's id above bit 40 and a count below
// (ThreadState::make_task_handle); the bits above any id carry flags.
// A final task: every task created inside it is included (OpenMP).
inline constexpr TaskHandle kFinalTaskBit = TaskHandle{1} << 61;
// In an instrumented old-task variable, beside the current task's handle:
// the construct was counted without a clock (ThreadState::create_task,
// begin_taskwait), so its end event has nothing to measure; with it either
// the sign bit, its end event has nothing to do at all, or (a creation)
// the untimed task was final, the outermost one.  As a new-task handle
// (POMP2_UNTIMED_TASK): the task of such a creation, whose body makes no
// events.
inline constexpr TaskHandle kUntimedBit = TaskHandle{1} << 62;
inline constexpr TaskHandle kUntimedDoneBit = std::numeric_limits<TaskHandle>::min();
inline constexpr TaskHandle kUntimedFinalBit = TaskHandle{1} << 60;
inline constexpr TaskHandle kUntimedTask = kUntimedBit;
inline constexpr std::uint32_t kMaxTaskHandleThreads = 1u << 19;
inline constexpr bool is_untimed(TaskHandle marker) { return (marker & kUntimedBit) != 0; }
// An untimed marker whose end event has nothing to do (not the outermost
// final task): the instrumented code tests this (POMP2_UNTIMED_DONE, a
// sign test) and leaves the end call out.
inline constexpr bool is_untimed_done(TaskHandle marker) { return marker < 0; }

struct TaskContext;

// One open region on a task's stack.  Constructed field by field in the hot
// path.  Kept small: a recursion keeps one per level.
struct Frame {
    Frame(Node* entered_node, Ticks now, Ticks suspended_total)
        : node(entered_node), entered(now), phase_mark(now), suspended_at_enter(suspended_total) {
        // The fields from last_exited_child to folded_children start as 0
        // (null, false): cleared in one go, a few wide stores, where their
        // initialisers one by one took a store each.
        constexpr std::size_t kCleared =
            offsetof(Frame, folded_children) + sizeof(folded_children) - offsetof(Frame, last_exited_child);
        std::memset(static_cast<void*>(&last_exited_child), 0, kCleared);
    }

    Node* node;
    Ticks entered;
    Ticks phase_mark;          // start of the current phase (body, exit, shutdown)
    Ticks suspended_at_enter;  // the context's suspended_total at entry
    // From here to folded_children: 0 (null, false) at the push (see the
    // constructor), adjacent.
    Node* last_exited_child;
    TaskContext* restores_implicit;  // fork frame of a master inside an explicit task
    TeamRecord* team;                // worker frame: where to report its end; fork frame: its record
    bool fork_pending;     // forked here, team body not begun yet
    bool worker;           // this thread joined someone else's team here
    bool in_exit_phase;    // critical/ordered/lock: the body ended, exitT runs from phase_mark
    bool included_final;   // task creation: its task runs inside it and is final
    bool folded;           // deeper than max_depth: the node is shared by all deeper levels
    // A folded frame directly inside a frame of its own node (recursion
    // below the fold point), pushed without a clock: its time is part of
    // that enclosing visit (ThreadState::enters_own_folded_node).
    bool untimed;
    bool cpu_sampled;      // parallel body: cpu_at_body_begin was read
    bool part_elided;      // a team's frame: its combined loop part is not entered (TeamBegin::WithPart)
    bool startup_at_join;  // worker frame: entered at its begin, the master adds the startup at the join
    std::uint32_t member;  // worker frame: its member in the team record (capacity or more: none)
    Ticks folded_children;  // folded frames: time in the folded frames entered from here
    // The creation of an included task (ThreadState::begin_included_task):
    // the enclosing included level's unsettled tasks at this creation, this
    // task not counted (TaskContext::included_settled), which its end
    // restores.  Written at the task's begin, read only at its end, so a
    // push leaves it as it was.
    std::uint64_t enclosing_unsettled;
    ThreadCpu cpu_at_body_begin;  // written and read only when cpu_sampled
};

// One task's open frames, innermost last: a growable array with the
// operations of std::vector<Frame> that the thread state uses, whose end is
// a plain pointer, so that the instrumented code may pop a frame by storing
// its address there (a deferred task's creation ended inline,
// POMP2_Task_create_end_fast: see ThreadState::remember_open_creation).
// Frames are trivially copyable and destructible, so growing copies bytes
// and popping only moves the end.
class FrameStack {
public:
    FrameStack() = default;
    FrameStack(const FrameStack&) = delete;
    FrameStack& operator=(const FrameStack&) = delete;
    ~FrameStack() {
        if (base_ != nullptr) std::allocator<Frame>().deallocate(base_, capacity());
    }

    bool empty() const { return end_ == base_; }
    bool full() const { return end_ == limit_; }
    std::size_t size() const { return static_cast<std::size_t>(end_ - base_); }
    std::size_t capacity() const { return static_cast<std::size_t>(limit_ - base_); }
    Frame& operator[](std::size_t i) { return base_[i]; }
    const Frame& operator[](std::size_t i) const { return base_[i]; }
    Frame& front() { return *base_; }
    const Frame& front() const { return *base_; }
    Frame& back() { return end_[-1]; }
    const Frame& back() const { return end_[-1]; }
    template <typename... Args>
    Frame& emplace_back(Args&&... args) {
        if (full()) [[unlikely]] grow(2 * capacity());
        return *std::construct_at(end_++, std::forward<Args>(args)...);
    }
    // emplace_back() where the caller knows there is room (!full()).
    template <typename... Args>
    Frame& emplace_back_within_capacity(Args&&... args) {
        assert(!full());
        return *std::construct_at(end_++, std::forward<Args>(args)...);
    }
    void pop_back() { --end_; }
    void clear() { end_ = base_; }
    void reserve(std::size_t wanted) {
        if (wanted > capacity()) grow(wanted);
    }
    // Where the end is kept; storing &back() there pops the innermost frame.
    Frame** end_address() { return &end_; }

private:
    [[gnu::noinline]] void grow(std::size_t wanted);

    Frame* base_ = nullptr;
    Frame* end_ = nullptr;
    Frame* limit_ = nullptr;
};

// With counters on, one per frame, beside the frames (most runs have none).
struct CounterMarks {
    CounterValues at_enter;
    CounterValues suspended_at_enter;
};

// The implicit task of a thread or one explicit task instance.
struct TaskContext {
    TaskHandle handle = 0;
    // An instance's construct and its task_root, kept when the context is
    // recycled (ThreadState::start_task reuses the root for the same construct).
    const RegionRecord* region = nullptr;
    Node* root = nullptr;  // the thread root, or the task_root of the instance's construct
    FrameStack frames;
    std::vector<CounterMarks> counter_marks;  // counters on: one per frame
    Node* root_last_exited = nullptr;
    Ticks suspended_total = 0;
    Ticks suspended_since = 0;
    bool suspended = false;
    CounterValues counters_suspended_total{};
    CounterValues counters_suspended_since{};
    // Entries beyond kMaxOpenFrames not pushed (ThreadState::push_folded):
    // the exits that match them are absorbed, newest first.
    std::uint64_t dropped_levels = 0;
    TaskContext* next_free = nullptr;
    // Tasks run inside their creation (ThreadState::begin_included_task)
    // that are open on this context, and the creation node of the outermost
    // one: everything inside them folds under it, as a deep recursion does
    // at the fold point, so a recursion of included tasks keeps the tree
    // small (one node per construct) and its time counted once.
    std::uint32_t included_open = 0;
    Node* included_fold = nullptr;
    // A task counted without a clock (ThreadState::create_task) ran
    // here.  Such tasks run as calls do (their regions are the creator's
    // children) and end without a call unless final, so this is not a count
    // of open ones: from then on, while the thread has created no task since
    // this context began (task_mark unchanged), a taskwait here has nothing
    // to wait for.
    bool ran_untimed = false;
    // make_task_handle(task_counter_) when this context began on its thread.
    TaskHandle task_mark = 0;
    // Open included or untimed tasks that are final (only the outermost
    // untimed one: inside it every task is included anyway): every task
    // created inside one is included too.
    std::uint32_t final_open = 0;
    // While included tasks are open: the thread's task count when the
    // innermost one began, plus every task created since that ran at once
    // and ended (included tasks; one that left tasks it created pending
    // counts them as unsettled).  task_counter_ less this is the number of
    // tasks created since that may not have completed; while it is 0, every
    // task the innermost one created (the children a taskwait there waits
    // for) has completed, so a taskwait there has nothing to wait for.  The
    // enclosing level's count is kept in the inner task's creation frame
    // (Frame::enclosing_unsettled) and restored at its end.
    std::uint64_t included_settled = 0;
    // When the instance began: its task root's visit runs from then to its
    // end, suspension excluded, and needs no frame (ThreadState::start_task).
    Ticks started = 0;
    // While the instance runs: its stub (ThreadState::enter_stub) when that
    // is no frame, and when it began running there.  The implicit task it
    // hangs under makes no event meanwhile, so a frame there is not needed:
    // the visit's control flow is counted at its start and its time is its
    // whole span (that implicit task is not suspended while one of its
    // tasks runs).
    Node* stub = nullptr;
    Ticks stub_entered = 0;

    Node* current_node() const { return frames.empty() ? root : frames.back().node; }
    // Where the node this context left last is kept (control flow): in the
    // innermost open frame, or beside the root.
    Node*& last_exited() { return frames.empty() ? root_last_exited : frames.back().last_exited_child; }
};

// Where a thread sits in the OpenMP thread hierarchy; computed by the adapter
// from omp_get_level()/omp_get_ancestor_thread_num(), or given by tests.
struct TeamPosition {
    std::uint64_t parent_key = 0;  // identity of the thread that forked the team
    int level = 0;
    // Its number in the team (omp_get_thread_num); 0: not known (no OpenMP
    // runtime), it then claims a member of the team's record.
    std::uint32_t thread_num = 0;
};

// What a team's begin event stands for: the begin alone, or the begin and
// the enter of the combined construct's part on the region's own handle
// (the fused POMP2_Parallel_begin_for_enter/_sections_enter), at one time.
enum class TeamBegin : std::uint8_t { Alone, WithPart };

// Owner only: the nodes of one thread's tree by (parent, kind, region, fork
// origin), so that a parent with thousands of children (user regions named
// at run time) finds one without walking its list.  Grows only when a node
// is added.
class ChildIndex {
public:
    Node* find(const Node* parent, model::NodeKind kind, const RegionRecord* region, const Node* fork_origin) const;
    void insert(Node* node);

private:
    std::vector<Node*> slots_;  // a power of two, at most half full
    std::size_t size_ = 0;
};

// Where the instrumented code counts an untimed task creation or taskwait
// itself (POMP2_Untimed_cache, <pomp2/pomp2_ompp.h>): the construct's handle
// and its slot in the cache.  No handle: the caller counts nothing inline.
struct UntimedSlot {
    const POMP2_Region_handle* handle = nullptr;
    unsigned index = 0;
};

// A task construct's if and final values as the instrumented code passes
// them, and the slot its inline form counts such tasks in (with the handle
// ThreadState::create_task is given).  One register, so that create_task's
// arguments all go in registers.
struct TaskClauseValues {
    bool if_clause = true;
    bool final_clause = false;
    std::uint8_t untimed_slot = 0;
};

// The bound of one task's frame stack (about 12 MB): deeper entries (a
// recursion far past OMPP_MAX_DEPTH, where they fold anyway) are counted
// and not recorded.  OMPP_MAX_DEPTH is capped at it.
inline constexpr std::size_t kMaxOpenFrames = std::size_t{1} << 17;

class ThreadState {
public:
    ThreadState(Measurement& measurement, std::uint32_t id, std::unique_ptr<CounterReader> counters);
    ThreadState(const ThreadState&) = delete;
    ThreadState& operator=(const ThreadState&) = delete;
    ~ThreadState();

    std::uint32_t id() const { return id_; }
    // The thread's trace buffer, kept here by the adapter (adapter/tracing.hpp)
    // so that a record finds it in one load instead of by the id: null
    // until the thread's first record.  Like the id, it stays with the state
    // when the state is recycled for another OS thread.  Owner only.
    trace::ThreadBuffer*& trace_buffer() { return trace_buffer_; }

    // Constructs without scheduling points.
    void enter(const RegionRecord& region, Ticks now, model::NodeKind kind = model::NodeKind::Region);
    void exit(const RegionRecord& region, Ticks now, model::NodeKind kind = model::NodeKind::Region);
    // A construct counted without a clock read (CTC timing=count: atomic,
    // flush): one visit of no time, in the control flow like any other.
    void count(const RegionRecord& region);
    // exit() of an MPI call that moved `bytes` (counted on its node).
    void exit_moving_bytes(const RegionRecord& region, Ticks now, std::uint64_t bytes);
    // Phases inside an open construct: critical/ordered/lock (enterT, bodyT,
    // exitT), single (singleT, singleC), sections (sectT, sectC).
    void begin_body(const RegionRecord& region, Ticks now);
    void end_body(const RegionRecord& region, Ticks now);
    // A section with a region of its own (ompp's native instrumentation):
    // a child node of its sections construct, whose sectT and sectC count it
    // as OPARI2's shared-handle sections do.
    void section_begin(const RegionRecord& section, Ticks now);
    void section_end(const RegionRecord& section, Ticks now);
    // POMP2_USER_End_named: the innermost open user region with this name.
    void exit_named(std::string_view name, std::string_view file, int line, Ticks now);

    // Parallel regions.  `key` identifies the forking thread (TeamPosition);
    // `team_size` is the number of threads requested (0: unknown; 1: no
    // workers, so the fork is not published).  `old_task`, unless null,
    // gets current_task() (the instrumented old-task variable), and join
    // resumes `resumed` (that variable) first, as scheduling points do, so
    // that each POMP2 event is one call here.
    void fork(const RegionRecord& region, Ticks now, std::uint64_t key, std::uint32_t team_size = 0,
              TaskHandle* old_task = nullptr);
    // A combined parallel loop's loop part (TeamBegin::WithPart) is not
    // entered where the profile folds it into the region's node anyway
    // (ProfileBuilder: its own figures are never reported, its children are
    // the region's): no frame, no node, no visit, the region's frame marked
    // instead.  Its exit is then nothing; the join barrier and the first
    // construct in the loop are recorded as they were with the part (their
    // predecessor the part, that is the region's node).  A team of the same
    // region forked directly inside (recursion) enters the part first, so
    // that the profile still tells the part from the nested instance.  One
    // function per TeamBegin: `parallel` pays nothing for the part.
    template <TeamBegin B = TeamBegin::Alone>
    void parallel_begin(const RegionRecord& region, Ticks now, const TeamPosition& position);
    // parallel_begin of the team's master, the thread that forked it (its
    // innermost frame is the fork), which needs no position: false, having
    // done nothing, on any other thread, which then asks the OpenMP runtime
    // for its position and calls parallel_begin.
    template <TeamBegin B = TeamBegin::Alone>
    bool parallel_begin_as_master(const RegionRecord& region, Ticks now);
    // parallel_begin on a thread that parallel_begin_as_master found not to
    // be the master, without that test again.
    template <TeamBegin B = TeamBegin::Alone>
    void parallel_begin_as_worker(const RegionRecord& region, Ticks now, const TeamPosition& position);
    void parallel_end(const RegionRecord& region, Ticks now);
    // The fused exit of a combined construct's part and the team's end
    // (POMP2_For_exit_parallel_end/_Sections_...): exit(part) and
    // parallel_end(region) at one time, as one event.
    void exit_part_and_end_team(const RegionRecord& part, const RegionRecord& region, Ticks now);
    // The exit of a combined construct's part on its own: exit(part), or
    // nothing if the part was left out.
    void exit_part(const RegionRecord& part, Ticks now);
    void join(const RegionRecord& region, Ticks now, std::optional<TaskHandle> resumed = std::nullopt);

    // OpenMP locks.  A visit covers the set call (its wait is enterT); the
    // time the lock is held (bodyT) and the unset call (exitT) are added to
    // the same node at unset, so lock hold times need not nest with regions.
    // `lock` is the lock object: an unset ends its newest hold.
    void lock_acquired(const RegionRecord& region, const void* lock, Ticks called, Ticks acquired);
    void lock_released(const void* lock, Ticks called, Ticks returned);

    // Tasks.  Scheduling points store current_task() in the instrumented
    // code's old-task variable on entry and pass it to resume() on exit.
    // An event of its own: the finaliser may be resetting the task contexts
    // (after program end it is 0, and the resume it is passed to is refused).
    TaskHandle current_task();
    TaskHandle new_task_handle(bool final_clause = false) {
        return make_task_handle(++task_counter_) | (final_clause ? kFinalTaskBit : 0);
    }
    void resume(TaskHandle task, Ticks now);
    // A scheduling point (a task's creation included) as one event each
    // way: entered, with current_task() stored in the old-task variable
    // (unless null; the store is here so that the adapter's call is a tail
    // call); left, resuming `task` (the old-task variable) and then exiting.
    void enter_scheduling_point(const RegionRecord& region, Ticks now, TaskHandle* old_task,
                                model::NodeKind kind = model::NodeKind::Region);
    void exit_scheduling_point(const RegionRecord& region, TaskHandle task, Ticks now,
                               model::NodeKind kind = model::NodeKind::Region);
    // The end of a task construct's creation (not untimed): as
    // exit_scheduling_point, reading the clock only if the creation's frame
    // is timed (Frame::untimed).
    void end_task_creation(const RegionRecord& region, TaskHandle task);
    void task_begin(const RegionRecord& region, TaskHandle task, Ticks now);
    void task_end(const RegionRecord& region, Ticks now);
    // The task of a task construct.  One that runs inside its own creation
    // (undeferred `if(0)`, included `final`, or run at once by the OpenMP
    // runtime) costs about a call in the plain program: it is counted on its
    // creation node (body_count: included instances) and its time is the
    // creation's, with no task context and no clock read.  Any other is
    // task_begin/task_end at the clock's time.
    void construct_task_begin(const RegionRecord& region, TaskHandle task);
    void construct_task_end(const RegionRecord& region);
    // The creation of a task construct whose if and final clauses the
    // instrumented code passes (POMP2_Task_create_begin_final), as one event.
    // When the task will run at once inside its creation, as part of its
    // creator (undeferred: `if` false; included: created inside a final
    // task), it costs about a call in the plain program, and so here: it is
    // counted on its creation node (a visit with no time, and an included
    // instance in body_count), its time stays its creator's, no clock is
    // read, *new_task is kUntimedTask and *old_task an untimed marker.  Only
    // a marker with kUntimedFinalBit (the outermost final one) needs
    // end_untimed_task; the instrumented code leaves the call out for the
    // others (is_untimed_done).  Any other creation is entered at the
    // clock's time as a scheduling point, with a new task handle.
    // With a `slot`, an untimed creation also fills the thread's untimed
    // cache (untimed_cache()), so that the instrumented code counts the next
    // ones there itself while nothing else happens on the thread.
    void create_task(const RegionRecord& region, TaskClauseValues clauses, TaskHandle* new_task, TaskHandle* old_task,
                     const POMP2_Region_handle* untimed_key = nullptr);
    void end_untimed_task(TaskHandle marker);
    // A taskwait that has nothing to wait for is counted without a clock and
    // its marker returned (is_untimed_done): inside a final task; inside
    // an included task every task created since whose begin ran at once and
    // ended (TaskContext::included_settled);
    // in a task context where untimed tasks ran and the thread has created
    // no task since the context began.  Otherwise it is entered at the
    // clock's time as a scheduling point (enter_scheduling_point) and the
    // current task returned; its end is exit_scheduling_point.
    TaskHandle begin_taskwait(const RegionRecord& region, UntimedSlot slot = {});
    // The end of one counted without a clock: the task of its marker goes
    // on.  (The instrumented code leaves it out; the call stays valid.)
    void end_taskwait_untimed(TaskHandle marker);
    // Tasks were created that no creation event reports (a taskloop's): a
    // taskwait after them may have something to wait for.
    void note_unreported_tasks() {
        stop_inline_counting();
        ++task_counter_;
    }

    // What the instrumented code may count itself (see create_task): the
    // owning thread's instrumented code reads it through
    // POMP2_Untimed_cache_v2_of_thread.  Every event of the thread clears its
    // mode first, and an untimed visit refills it; any thread may clear it
    // (Measurement::stop_inline_counting), leaving kUntimedCountsToAdd.
    POMP2_Untimed_cache* untimed_cache() { return &untimed_cache_; }
    // The instrumented code counts nothing more until an untimed visit
    // fills the cache again; what it counted stays, for the owner's next
    // event to add (end_inline_counting).
    void stop_inline_counting() {
        shared(untimed_cache_.mode).store(kUntimedCountsToAdd, std::memory_order_relaxed);
    }
    // What the instrumented code counted in the cache's slots since the
    // last time, added to the nodes as count_untimed_visit would have (see
    // POMP2_Untimed_cache): by the owning thread where a profile is built
    // on it (each of its events does it at its start, see EventScope).
    void add_untimed_counts() {
        if (slots_may_hold_counts(shared(untimed_cache_.mode).load(std::memory_order_relaxed))) add_slot_counts();
    }

    // Program end: every region still open on this thread (task instances
    // included) is closed at `now`, so its time counts, with a warning per
    // region.  Called by the finalising thread for every thread once events
    // are no longer recorded (see Measurement::close_open_regions).
    void close_open_regions(Ticks now);
    // Finaliser, after Measurement::stop(): whether the thread's last event
    // is over (its open regions may then be closed).
    // (Events in flight, and counting in the instrumented code.)
    bool quiescent() const {
        return events_in_flight_.load(std::memory_order_acquire) == 0 &&
               shared(const_cast<unsigned&>(untimed_cache_.busy)).load(std::memory_order_acquire) == 0;
    }

    // Read side (any thread).
    const Node& root() const { return *root_; }
    int team_level() const { return team_level_.load(std::memory_order_relaxed); }
    std::uint32_t parent_thread() const { return parent_thread_.load(std::memory_order_relaxed); }
    std::vector<model::Warning> warnings() const;
    // Owner only (or after the thread stopped): memory in use.
    std::size_t live_nodes() const { return nodes_.live(); }
    std::size_t open_frames() const { return current_->frames.size(); }
    // Owner only, as its OS thread ends: nothing open and no counter reader
    // (which belongs to one OS thread), so another thread may carry on.
    bool recyclable() const {
        return counters_ == nullptr && current_ == &implicit_main_ && implicit_main_.frames.empty() &&
               active_.empty() && held_locks_.empty();
    }
    // Owner only, as its OS thread ends and the state is parked: lets go of
    // what belongs to that OS thread (its CPU-time file), so the thread that
    // carries on with the state reads its own.
    void release_os_thread() { cpu_.release(); }

private:
    // push() where it takes no call (see enter): null, nothing changed, where it would.
    Frame* push_cached(TaskContext& context, model::NodeKind kind, const RegionRecord& region, Ticks now);
    // The innermost frame if an exit of (kind, region) closes it and its pop
    // takes no call; null otherwise.
    Frame* innermost_plain_frame(TaskContext& context, model::NodeKind kind, const RegionRecord& region);
    // An exit's part once its frame, the innermost, is found: its exit phase
    // (critical, ordered, lock), the explicit barrier's note, its pop.
    template <bool kPlain>
    void close_frame(TaskContext& context, Frame& frame, const RegionRecord& region, Ticks now, model::NodeKind kind);
    // exit() and resume() inside an event scope opened by the caller.
    // `part_of_team`: the exit of a combined construct's part, which may
    // have been left out (parallel_begin).
    void exit_in_scope(const RegionRecord& region, Ticks now, model::NodeKind kind, bool part_of_team = false);
    void resume_in_scope(TaskHandle task, Ticks now) {
        if (current_->handle != task) [[unlikely]] resume_other(task, now);
    }
    void resume_other(TaskHandle task, Ticks now);
    // task_begin/task_end inside an event scope opened by the caller.
    void start_task(const RegionRecord& region, TaskHandle task, Ticks now);
    void finish_task(const RegionRecord& region, Ticks now);
    // Included tasks (construct_task_begin): begin is false if `task` is not
    // the task this thread created last inside its still open creation; end
    // is false if the innermost such task is not one of `region`.
    bool begin_included_task(const RegionRecord& region, TaskHandle task);
    bool end_included_task(const RegionRecord& region);
    // A taskwait now has nothing to wait for (see begin_taskwait).
    bool nothing_to_wait_for(const TaskContext& context) const;
    // Tasks created now are included (OpenMP): inside a final task.
    static bool in_final_task(const TaskContext& context) {
        return context.final_open > 0 || (context.handle & kFinalTaskBit) != 0;
    }
    // A visit to the node `region` would be entered at now, counted without
    // time (no frame): control flow and the enclosing frame's last exited
    // child as push/pop would leave them.  Returns the node.
    Node* count_untimed_visit(TaskContext& context, model::NodeKind kind, const RegionRecord& region);
    // After an untimed visit of `node` in `context` (out of line: only the
    // inline forms' calls pass a slot; `creation`: a task construct's): the
    // cache filled so that the instrumented code counts the next untimed
    // visits of `slot`'s construct, and of the others cached at the same
    // place, itself.
    [[gnu::noinline]] void remember_untimed_visit(TaskContext& context, Node* node, UntimedSlot slot, bool creation);
    // The mode of the untimed cache that the owner's events find: any but 0
    // means something to do (end_inline_counting).  The slots hold counts
    // only under a mode that let the instrumented code count, or that
    // another thread left (stop_inline_counting); not under 0, nor under
    // POMP2_CREATION_OPEN alone, which an event sets with the slots empty.
    // So an event whose thread counted nothing inline since its last event
    // pays one load and test, in place of the store of 0 it would make.
    static constexpr unsigned kUntimedCountsToAdd = 16;
    static_assert((kUntimedCountsToAdd & (POMP2_UNTIMED_UNDEFERRED | POMP2_UNTIMED_ANY_TASK | POMP2_UNTIMED_TASKWAIT |
                                          POMP2_CREATION_OPEN)) == 0);
    static bool slots_may_hold_counts(unsigned mode) { return (mode & ~POMP2_CREATION_OPEN) != 0; }
    unsigned inline_mode() const {
        return shared(const_cast<unsigned&>(untimed_cache_.mode)).load(std::memory_order_relaxed);
    }
    // At an event's start, under a mode other than 0: the instrumented code
    // counts nothing more until an untimed visit fills the cache again, and
    // what it counted is added first (unless the event is refused: then the
    // finaliser adds it).
    [[gnu::noinline]] void end_inline_counting(unsigned mode, bool refused);
    [[gnu::noinline]] void add_slot_counts();
    // The control flow from slot `before`'s node to slot `index`'s, counted
    // `count` times and kept for the next time.
    [[gnu::noinline]] void add_first_slot_edge(unsigned index, unsigned before, std::uint64_t count);
    // A deferred task's creation just entered (`frame`, the innermost) in
    // the cache (POMP2_Open_creation), so that the instrumented code closes
    // it itself (POMP2_Task_create_end_fast) if nothing else happens on the
    // thread before its end: that end is then the frame's pop as
    // exit_scheduling_point makes it, since no task switched and nothing
    // was suspended meanwhile.  Not for a frame that folds or was dropped,
    // nor with counters (its pop reads them).
    void remember_open_creation(TaskContext& context, const Frame& frame, const POMP2_Region_handle* handle);
    // `mode` (POMP2_UNTIMED_*, POMP2_CREATION_OPEN) stored for the
    // instrumented code, after the cache it describes is filled; the cache
    // is cleared again if inline counting stopped meanwhile.
    void publish_inline_mode(unsigned mode);
    // The cache's fields that other threads read or write.
    static std::atomic_ref<unsigned> shared(unsigned& field) { return std::atomic_ref<unsigned>(field); }
    // The node of a visit that opens and closes within one event, without a
    // frame: the node, control flow and the enclosing frame's last exited
    // child as push and pop would leave them.  The caller records the visit.
    Node* visit_without_frame(TaskContext& context, model::NodeKind kind, const RegionRecord& region);
    // A lock's visit where it needs a frame (folded call paths, counters);
    // null for an entry dropped at the frame bound.
    Node* lock_visit_in_frame(const RegionRecord& region, Ticks called, Ticks acquired);
    // begin_body and end_body: the step, the event on a construct that is
    // not the innermost open one, and the step's metrics.
    enum class BodyStep : std::uint8_t { Begin, End };
    template <BodyStep S>
    void body_step(const RegionRecord& region, Ticks now);
    template <BodyStep S>
    void body_step_in_general(const RegionRecord& region, Ticks now);
    template <BodyStep S>
    static void take_body_step(Frame& frame, const RegionRecord& region, Ticks now);
    // Moves the newest hold of `lock` to the back of held_locks_, the others
    // kept in order; false if the thread holds none.
    bool newest_hold_to_back(const void* lock);
    // The task whose handle `marker` carries goes on (inside an event scope).
    void resume_untimed(TaskHandle marker);
    // Unique per process without synchronisation: thread id in the high bits.
    TaskHandle make_task_handle(std::uint64_t count) const { return task_handle_base_ | static_cast<TaskHandle>(count); }
    Node* new_node(model::NodeKind kind, const RegionRecord* region, Node* parent, const Node* fork_origin);
    // Fast paths: the last hits are checked inline, the lists only on a miss.
    // The cached forms are the hits alone: on a miss, the child is on_miss()
    // and the entry null.
    template <typename OnMiss>
    static Node* cached_child_or(const Node* parent, std::uintptr_t key, const Node* fork_origin, OnMiss on_miss);
    static PredecessorEntry* cached_predecessor(const Node* node, const Node* predecessor);
    Node* child_of(Node* parent, model::NodeKind kind, const RegionRecord* region, const Node* fork_origin);
    // A child's key in its parent's hit cache (Node::recent_keys): its
    // region's address (a multiple of 16) with its kind + 1 in bits 0-2 and
    // whether it has a fork origin in bit 3.  Never 0, and equal for two
    // children only if they have the same region and kind and both have a
    // fork origin or neither has.
    static std::uintptr_t child_key(model::NodeKind kind, const RegionRecord* region, const Node* fork_origin) {
        static_assert(alignof(RegionRecord) >= 16 && static_cast<unsigned>(model::NodeKind::TaskStub) + 1 < 8);
        return reinterpret_cast<std::uintptr_t>(region) | (static_cast<std::uintptr_t>(kind) + 1) |
               (fork_origin != nullptr ? 8 : 0);
    }
    Node* find_or_add_child(Node* parent, model::NodeKind kind, const RegionRecord* region, const Node* fork_origin);
    PredecessorEntry* count_predecessor(Node* node, const Node* predecessor, std::uint64_t count);
    PredecessorEntry* find_or_add_predecessor(Node* node, const Node* predecessor);
    Frame& push(TaskContext& context, model::NodeKind kind, const RegionRecord& region, Ticks now,
                const Node* fork_origin = nullptr);
    template <bool kPlain = false>
    void pop(TaskContext& context, Ticks now);
    // pop() of a frame that ends without its end event (left open inside
    // an enclosing region, or at program end): a worker's team frame, which
    // no join will complete, counts its startup first.
    void pop_left_open(TaskContext& context, Ticks now);
    // A worker's team frame entered at its begin now begins at its team's
    // fork (unless later), its startup counted on its node.
    void count_startup(Frame& frame);
    // pop() without recording the visit: for a worker's part of a parallel
    // region, whose visit the master completes at the join.
    struct Visit {
        Node* node;
        Ticks measured;
        bool outermost;
    };
    // kPlain: the frame is known to be neither folded nor counted
    // (innermost_plain_frame), so that leaving it takes no call.
    template <bool kPlain = false>
    Visit leave(TaskContext& context, Ticks now);
    // parallel_begin's part on the master (see parallel_begin_as_master),
    // inside the caller's event scope: false on a worker.
    bool begin_own_team(const RegionRecord& region, Ticks now, TeamBegin begin);
    // A worker's member of its team record (Frame::member) at the end of
    // its part, if the worker may write it (see TeamMember); null: none, or
    // still the master's.
    TeamMember* member_to_write(const Frame& frame);
    // parallel_begin's part on a worker, inside the caller's event scope.
    template <TeamBegin B>
    void begin_worker_part(const RegionRecord& region, Ticks now, const TeamPosition& position);
    // TeamBegin::WithPart: the part of the region whose team frame `team`
    // (the innermost) has just begun, entered or marked elided.
    void begin_part(Frame& team, const RegionRecord& region, Ticks now);
    // Whether a combined construct's part can be left out (see parallel_begin).
    static bool elides_part(const RegionRecord& region) {
        return region.info.kind == model::RegionKind::ParallelLoop && !region.barrier_at_join;
    }
    // The part entered as a region of its own (out of line).
    Frame& enter_part(const RegionRecord& region, Ticks now);
    // fork() inside the innermost frame, a team frame whose part is elided.
    void enter_elided_part(const RegionRecord& region, Ticks now);
    // The team record of the instance of fork node `node` forked now (see
    // fork); a nested open instance's, or a new one, out of line.
    TeamRecord& team_record(Node& node);
    TeamRecord& nested_team_record(Node& node);
    // parallel_end inside the caller's event scope.
    void end_team_in_scope(const RegionRecord& region, Ticks now);
    // At a parallel region's end: the node of this thread's wait in the
    // runtime's join barrier, or null when the instrumented code measured an
    // explicit barrier there (OPARI2's transformation) or the frame is folded.
    Node* join_barrier(Frame& frame, const RegionRecord& region);
    // At the join: every thread's visit completed with its join-barrier wait.
    void complete_team(Frame& frame, Ticks now);
    static void record_join_wait(Node& barrier, Node& part, Ticks waited);
    // Call paths deeper than max_depth_ fold into one node per region under
    // the node at max_depth_ (the fold point): recursion shows as one node
    // whose visits nest, with their time counted once.  An entry from
    // `caller` folds there, or under an included task's creation.
    bool folds_under(const TaskContext& context, const Node* caller) const {
        return caller->depth >= max_depth_ || context.included_fold != nullptr;
    }
    // The frames hold consecutive depths from the first one's (the first
    // region entered under the thread root, or under a task root that has no
    // frame), so the node at max_depth_ is found by its distance from it.
    Node* fold_point(const TaskContext& context) const {
        return context.included_fold != nullptr
                   ? context.included_fold
                   : context.frames[max_depth_ - context.frames.front().node->depth].node;
    }
    Frame& push_folded(TaskContext& context, model::NodeKind kind, const RegionRecord& region, Ticks now,
                       const Node* fork_origin);
    // Whether entering (kind, region) now folds into the node of the
    // innermost frame, itself folded: a recursive visit whose time the
    // enclosing visit of the same node already measures.  Its folded
    // exclusive time would be that visit's minus its own children's, and
    // the enclosing visit subtracts it again, so the sum the profile shows
    // is the same without it; only its count and its children's times go
    // up.  A task creation that does (BOTS UTS: tasks run at once inside
    // their creation, creating more) gets an `untimed` frame and reads no
    // clock at either end (push_untimed, end_task_creation).
    // (The node a folded push enters is the fold point's child of that
    // kind and region.)
    bool enters_own_folded_node(const TaskContext& context, model::NodeKind kind, const RegionRecord& region) const {
        if (context.frames.empty()) return false;
        const Node* top = context.frames.back().node;
        return context.frames.back().folded && top->region == &region && top->kind == kind &&
               top->fork_origin == nullptr && top->parent == fold_point(context);
    }
    // Pushes a frame for the child of `parent`, entered from the current node.
    Frame& push_under(TaskContext& context, Node* parent, model::NodeKind kind, const RegionRecord& region, Ticks now,
                      const Node* fork_origin);
    // Whether this was the node's outermost open visit.
    bool leave_folded(TaskContext& context, const Frame& frame, Ticks visit);
    // An untimed frame (Frame::untimed): pushed, and its leaving's part
    // beyond a pop's.
    Frame& push_untimed(TaskContext& context);
    void close_untimed(Frame& enclosing, const Frame& frame);
    Frame* open_frame(TaskContext& context, model::NodeKind kind, const RegionRecord& region, Ticks now);
    Frame* open_frame_below_top(TaskContext& context, model::NodeKind kind, const RegionRecord& region, Ticks now);
    // CPU use of parallel-region bodies, sampled: a thread's first body of
    // each region, and any body begun kCpuSampleInterval_s or more after the
    // thread's previous sample began, so the two system calls of a sample
    // cost at most a few microseconds per interval and per region, however
    // short and frequent the regions are; other bodies cost one compare.
    void begin_body_sample(Frame& frame, Ticks now) {
        if (now - last_cpu_sample_ >= cpu_sample_interval_ || !frame.node->body_begun) [[unlikely]]
            start_cpu_sample(frame, now);
    }
    void start_cpu_sample(Frame& frame, Ticks now);
    void finish_cpu_sample(Frame& frame, Ticks body);
    // An explicit task starts or stops running at the implicit task's
    // scheduling point: its visit of the stub there (the time it ran)
    // begins or ends.  Usually a visit without a frame (TaskContext::stub);
    // a stub that folds, or whose counters are read, is a frame on the
    // implicit task.
    void enter_stub(TaskContext& target, Ticks now);
    void leave_stub(Ticks now);
    void switch_to(TaskContext& target, Ticks now);
    // Pops frames down to `keep`, warning (`why`) for each region left open.
    void close_frames(TaskContext& context, std::size_t keep, Ticks now, std::string_view why);
    // An entry dropped at the frame bound: its exit, body phases and
    // parallel end are absorbed (newest first), not matched against frames.
    bool in_dropped_frame() const { return current_->dropped_levels > 0; }
    bool absorb_dropped_exit() {
        if (current_->dropped_levels == 0) [[likely]] return false;
        --current_->dropped_levels;
        return true;
    }
    // A task root is a frame only where it must be: its counters are read,
    // or it is itself the fold point (OMPP_MAX_DEPTH=1).  Otherwise nothing
    // needs one: its visit is the instance's whole span less its suspension
    // (TaskContext::started, suspended_total), recorded when it ends, and a
    // context without frames is at its root (current_node, last_exited).
    std::size_t task_root_frames() const { return task_root_frames_; }
    // The instance's frames are closed: its task root's visit ends at `now`.
    void end_task_root(TaskContext& instance, Ticks now);
    // A finished instance: its context is recycled.
    void retire(TaskContext* instance);
    void warn(const RegionRecord* region, std::string text);
    // An event with no open construct to apply to, ignored.  Out of line
    // and cold: the event's common case then needs no stack frame.
    [[gnu::noinline, gnu::cold]] void warn_unmatched(const RegionRecord& region, std::string_view what);
    void read_counters(CounterValues& values) { counters_->read(values); }

    // Every event runs in a scope that the finalising thread waits for
    // (Measurement::stop): entering counts the event in flight, then checks
    // that measurement has not stopped (a stopped thread's regions are being
    // closed by the finaliser); leaving is one release store, which the
    // finaliser acquires, so it sees everything the thread did.  Single
    // writer: plain load and store, no read-modify-write.
    class EventScope {
    public:
        // Without an argument, the event first ends the instrumented code's
        // counting in the untimed cache (end_inline_counting).  With
        // kInlineModeSeenClear, for an event that found the cache's mode 0
        // just before (no counts to add, no mode to clear), it makes no call,
        // so a frameless event stays so.  (Another thread clearing the mode
        // meanwhile leaves the slots empty and its mark for the next event.)
        static constexpr std::false_type kInlineModeSeenClear{};
        template <bool kEndsInlineCounting = true>
        explicit EventScope(ThreadState& thread, std::bool_constant<kEndsInlineCounting> = {});
        // The scope a common case (CommonCaseScope) hands over, adopted by
        // the event's general form, which ends inline counting as the
        // constructor above does.  (Only the owner writes the count, so the
        // count it found is the count less this event.)  Not `opened`: the
        // general form is called directly and opens its scope as above.
        struct Handover {
            bool opened = true;
        };
        explicit EventScope(ThreadState& thread, Handover handed);
        // The count this scope found: scopes nest, so it is the count again.
        ~EventScope() { close(thread_, outer_); }
        EventScope(const EventScope&) = delete;
        EventScope& operator=(const EventScope&) = delete;
        bool refused() const { return refused_; }

        // Counts an event in flight on top of `outer`, the count found, then
        // reads stopped() behind the ordering: whether the event is refused.
        static bool open(ThreadState& thread, std::uint32_t outer);
        static void close(ThreadState& thread, std::uint32_t outer) {
            thread.events_in_flight_.store(outer, std::memory_order_release);
        }

    private:
        ThreadState& thread_;
        std::uint32_t outer_;
        bool refused_;
    };
    // The scope of an event's common case (see ThreadState::enter), which
    // takes no call: opened as EventScope(kInlineModeSeenClear) opens one,
    // without ending inline counting.  Where the common case does not apply
    // (the event is refused, the cache's mode is not 0, or it would take a
    // call), the event tail-calls its general form with this scope
    // (hand_over), which adopts it; so the common case needs no stack frame,
    // and the general form no second scope.
    // (It keeps no count in a register across the common case: closing, it
    // takes this event off the count, which only the owner writes.)
    class CommonCaseScope {
    public:
        explicit CommonCaseScope(ThreadState& thread);
        ~CommonCaseScope() {
            if (!handed_over_)
                EventScope::close(thread_, thread_.events_in_flight_.load(std::memory_order_relaxed) - 1);
        }
        CommonCaseScope(const CommonCaseScope&) = delete;
        CommonCaseScope& operator=(const CommonCaseScope&) = delete;
        // Whether the common case may go on: not refused, nothing counted inline.
        bool applies() const { return !refused_ && thread_.inline_mode() == 0; }
        // This scope then closes nothing: the general form's does.
        EventScope::Handover hand_over() {
            handed_over_ = true;
            return {};
        }

    private:
        ThreadState& thread_;
        bool refused_;
        bool handed_over_ = false;
    };

    // enter, exit and the scheduling points where their common case
    // (push_cached, innermost_plain_frame) does not apply, in the scope it
    // hands over: out of line, so that the common case needs no stack frame.
    void enter_in_general(const RegionRecord& region, Ticks now, model::NodeKind kind, EventScope::Handover scope);
    void exit_in_general(const RegionRecord& region, Ticks now, model::NodeKind kind, EventScope::Handover scope);
    void enter_scheduling_point_in_general(const RegionRecord& region, Ticks now, TaskHandle* old_task,
                                           model::NodeKind kind, EventScope::Handover scope);
    void exit_scheduling_point_in_general(const RegionRecord& region, TaskHandle task, Ticks now,
                                          model::NodeKind kind, EventScope::Handover scope);

    Measurement& measurement_;
    const std::uint32_t id_;
    const std::uint32_t max_depth_;
    trace::ThreadBuffer* trace_buffer_ = nullptr;
    const Ticks cpu_sample_interval_;
    Ticks last_cpu_sample_ = 0;
    ThreadCpuSource cpu_;
    std::atomic<std::uint32_t> events_in_flight_{0};  // EventScopes open (nested: a section's enter)
    std::unique_ptr<CounterReader> counters_;  // null: no counters (the common case)
    // Fixed for the thread's life, so that the task path reads them in one
    // load: the bits of every task handle it makes above the count (its id,
    // see make_task_handle), and task_root_frames().
    const TaskHandle task_handle_base_;
    const std::size_t task_root_frames_;
    BlockPool<Node> nodes_;
    ChildIndex children_;
    BlockPool<PredecessorEntry, 512> predecessors_;
    BlockPool<TaskContext, 32> contexts_;
    Node* root_;
    TaskContext implicit_main_;
    TaskContext* implicit_;  // the implicit task of the innermost team
    TaskContext* current_;   // the task executing now
    std::vector<TaskContext*> active_;  // explicit instances begun and not ended
    struct HeldLock {
        const void* lock;
        Node* node;
        Ticks acquired;
    };
    std::vector<HeldLock> held_locks_;
    Frame overflow_frame_{nullptr, 0, 0};     // what push returns for a dropped entry
    std::atomic<std::uint64_t> frames_dropped_{0};  // owner writes, readers report
    std::vector<std::unique_ptr<TeamRecord>> teams_;
    // Fork-table slots by key, kept (see ForkTable): this thread's own as a
    // forker, and its last team's forker's as a worker.
    template <typename Slot>
    struct KnownForkSlot {
        std::uint64_t key = 0;
        Slot* slot = nullptr;  // null: none yet
    };
    KnownForkSlot<ForkSlot> own_fork_slot_;
    KnownForkSlot<const ForkSlot> team_fork_slot_;
    std::uint64_t task_counter_ = 0;
    // The join-barrier measurement (see TeamRecord): time this thread ran
    // explicit tasks, its report to the team it last arrived at the end of
    // (worker), and the last implicit barrier the instrumented code measured.
    Ticks task_time_ = 0;
    TeamMember* arrival_slot_ = nullptr;
    Ticks tasks_at_arrival_ = 0;
    const RegionRecord* explicit_barrier_region_ = nullptr;
    Ticks explicit_barrier_exit_ = 0;
    std::atomic<int> team_level_{0};
    std::atomic<std::uint32_t> parent_thread_{0};
    // The untimed visits the instrumented code counts (untimed_cache()), and
    // the node its call path counts them under (with last_exited, where).
    alignas(kCacheLine) POMP2_Untimed_cache untimed_cache_{};
    const Node* untimed_parent_ = nullptr;
    // The slots whose construct is a task's creation (each visit an
    // included instance too), and the control-flow counts between the
    // slots' nodes, [slot][slot before] (null: not looked up yet).
    bool untimed_creation_[POMP2_UNTIMED_SLOTS] = {};
    PredecessorEntry* untimed_edges_[POMP2_UNTIMED_SLOTS][POMP2_UNTIMED_SLOTS] = {};
    // Whether the instrumented code may close a deferred task's creation
    // (remember_open_creation): it reads the clock itself (the TSC or a
    // manual clock), and no counters are read.
    bool closes_creations_inline_ = false;
    mutable std::mutex warnings_mutex_;
    std::vector<model::Warning> warnings_;
    std::unordered_map<std::string, std::size_t> warning_index_;  // text -> position in warnings_
};

}  // namespace ompp::core
