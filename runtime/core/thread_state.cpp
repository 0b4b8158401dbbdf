#include "core/thread_state.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "core/measurement.hpp"
#include "model/names.hpp"

namespace ompp::core {
namespace {

using model::NodeKind;
using model::RegionKind;

// Constructs whose time between body end and exit is ompP's exitT, and whose
// time between enter and body begin is its enterT.
bool has_enter_exit_phases(RegionKind kind) {
    return kind == RegionKind::Critical || kind == RegionKind::Ordered || kind == RegionKind::Lock;
}

std::string describe(const RegionRecord* region) {
    if (region == nullptr) return "unknown region";
    const model::Region& info = region->info;
    std::string text = fmt::format("R{:05} {}", info.id, model::report_name(info.kind));
    if (info.name) text += fmt::format(" '{}'", *info.name);
    if (!info.directive.file.empty()) {
        text += fmt::format(" {} ({}-{})", info.directive.file, info.directive.first_line,
                            std::max(info.block_end.last_line, info.directive.first_line));
    }
    return text;
}

Ticks elapsed(Ticks from, Ticks to) { return to > from ? to - from : 0; }

// Between two CPU samples of a thread's parallel bodies (first bodies of a
// region excepted): two reads per 10 ms are at most 0.12% of a thread's
// time even where a read costs 6 us.
constexpr double kCpuSampleInterval_s = 0.010;

std::size_t child_hash(const Node* parent, NodeKind kind, const RegionRecord* region, const Node* fork_origin) {
    std::uint64_t key = reinterpret_cast<std::uintptr_t>(parent) * 0x9e3779b97f4a7c15ULL;
    key ^= (reinterpret_cast<std::uintptr_t>(region) + static_cast<std::uint64_t>(kind)) * 0xbf58476d1ce4e5b9ULL;
    key ^= reinterpret_cast<std::uintptr_t>(fork_origin) * 0x94d049bb133111ebULL;
    return static_cast<std::size_t>(key ^ (key >> 29));
}

}  // namespace

Node* ChildIndex::find(const Node* parent, NodeKind kind, const RegionRecord* region, const Node* fork_origin) const {
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = child_hash(parent, kind, region, fork_origin) & mask;; i = (i + 1) & mask) {
        Node* node = slots_[i];
        if (node == nullptr ||
            (node->parent == parent && node->kind == kind && node->region == region && node->fork_origin == fork_origin)) {
            return node;
        }
    }
}

void ChildIndex::insert(Node* node) {
    if (2 * (size_ + 1) > slots_.size()) {
        std::vector<Node*> old = std::exchange(slots_, std::vector<Node*>(std::max<std::size_t>(64, 2 * slots_.size())));
        size_ = 0;
        for (Node* kept : old) {
            if (kept != nullptr) insert(kept);
        }
    }
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = child_hash(node->parent, node->kind, node->region, node->fork_origin) & mask;
    while (slots_[i] != nullptr) i = (i + 1) & mask;
    slots_[i] = node;
    ++size_;
}

static_assert(std::is_trivially_copyable_v<Frame> && std::is_trivially_destructible_v<Frame>);

void FrameStack::grow(std::size_t wanted) {
    std::allocator<Frame> allocator;
    const std::size_t size = this->size();
    const std::size_t capacity = std::max<std::size_t>(wanted, 16);
    Frame* grown = allocator.allocate(capacity);
    if (base_ != nullptr) {
        std::memcpy(static_cast<void*>(grown), base_, size * sizeof(Frame));
        allocator.deallocate(base_, this->capacity());
    }
    base_ = grown;
    end_ = grown + size;
    limit_ = grown + capacity;
}

ThreadState::ThreadState(Measurement& measurement, std::uint32_t id, std::unique_ptr<CounterReader> counters)
    : measurement_(measurement), id_(id), max_depth_(measurement.max_depth()),
      cpu_sample_interval_(static_cast<Ticks>(kCpuSampleInterval_s / measurement.clock().seconds_per_tick())),
      counters_(std::move(counters)),
      task_handle_base_(static_cast<TaskHandle>((static_cast<std::uint64_t>(id) + 1) << 40)),
      task_root_frames_(counters_ != nullptr || max_depth_ <= 1 ? 1 : 0) {
    assert(id_ < kMaxTaskHandleThreads);
    const Clock& clock = measurement.clock();
    closes_creations_inline_ = clock.reads_without_call() && counters_ == nullptr;
    untimed_cache_.creation.manual_clock = reinterpret_cast<const std::uint64_t*>(clock.manual_ticks());
    root_ = new_node(NodeKind::Root, nullptr, nullptr, nullptr);
    implicit_main_.root = root_;
    implicit_main_.task_mark = make_task_handle(task_counter_);
    implicit_main_.frames.reserve(64);
    implicit_ = &implicit_main_;
    current_ = &implicit_main_;
    active_.reserve(64);
    held_locks_.reserve(16);
}

ThreadState::~ThreadState() = default;

Node* ThreadState::new_node(NodeKind kind, const RegionRecord* region, Node* parent, const Node* fork_origin) {
    // Nodes are never freed, so a new one is still as constructed.
    Node* node = nodes_.allocate();
    node->kind = kind;
    node->region = region;
    node->parent = parent;
    node->fork_origin = fork_origin;
    node->depth = parent != nullptr ? parent->depth + 1 : 0;
    // Folded under an included task's creation: a folded node, like those
    // below the fold point at max_depth.
    if (parent != nullptr && parent == current_->included_fold) node->depth = std::max(node->depth, max_depth_ + 1);
    return node;
}

// A hit returns the cached child itself, so that child_of tests nothing more.
template <typename OnMiss>
[[gnu::always_inline]] inline Node* ThreadState::cached_child_or(const Node* parent, std::uintptr_t key,
                                                                 const Node* fork_origin, OnMiss on_miss) {
    // The key tells a child's region, kind and whether it has a fork origin;
    // only a child that has one is read, for which one.
#pragma GCC unroll 4
    for (std::size_t i = 0; i < parent->recent_keys.size(); ++i) {
        if (parent->recent_keys[i] == key &&
            (fork_origin == nullptr || parent->recent_children[i]->fork_origin == fork_origin)) [[likely]] {
            // A key is never 0 and set with its child: a hit is a node,
            // which the caller need not test again.
            Node* child = parent->recent_children[i];
            if (child == nullptr) __builtin_unreachable();
            return child;
        }
    }
    return on_miss();
}

inline Node* ThreadState::child_of(Node* parent, NodeKind kind, const RegionRecord* region, const Node* fork_origin) {
    const std::uintptr_t key = child_key(kind, region, fork_origin);
    return cached_child_or(parent, key, fork_origin, [&] {
        // A search; the node found takes the place of the oldest one.
        Node* found = find_or_add_child(parent, kind, region, fork_origin);
        const std::uint8_t replaced = parent->next_replaced_child;
        parent->recent_keys[replaced] = key;
        parent->recent_children[replaced] = found;
        parent->next_replaced_child = (replaced + 1) % parent->recent_children.size();
        return found;
    });
}

__attribute__((noinline)) Node* ThreadState::find_or_add_child(Node* parent, NodeKind kind, const RegionRecord* region,
                                                               const Node* fork_origin) {
    if (Node* known = children_.find(parent, kind, region, fork_origin)) return known;
    Node* child = new_node(kind, region, parent, fork_origin);
    children_.insert(child);
    if (parent->last_child != nullptr) {
        parent->last_child->next_sibling.store(child, std::memory_order_release);
    } else {
        parent->first_child.store(child, std::memory_order_release);
    }
    parent->last_child = child;
    return child;
}

[[gnu::always_inline]] inline PredecessorEntry* ThreadState::cached_predecessor(const Node* node,
                                                                              const Node* predecessor) {
    PredecessorEntry* last = node->last_predecessor;
    if (last != nullptr && last->predecessor == predecessor) [[likely]] return last;
    PredecessorEntry* earlier = node->earlier_predecessor;
    return earlier != nullptr && earlier->predecessor == predecessor ? earlier : nullptr;
}

inline PredecessorEntry* ThreadState::count_predecessor(Node* node, const Node* predecessor, std::uint64_t count) {
    PredecessorEntry* entry = cached_predecessor(node, predecessor);
    if (entry == nullptr) [[unlikely]] {
        node->earlier_predecessor = node->last_predecessor;
        entry = node->last_predecessor = find_or_add_predecessor(node, predecessor);
    }
    entry->count.add(count);
    return entry;
}

__attribute__((noinline)) PredecessorEntry* ThreadState::find_or_add_predecessor(Node* node,
                                                                                 const Node* predecessor) {
    PredecessorEntry* tail = nullptr;
    for (PredecessorEntry* e = node->first_predecessor.load(std::memory_order_relaxed); e != nullptr;
         e = e->next.load(std::memory_order_relaxed)) {
        if (e->predecessor == predecessor) return e;
        tail = e;
    }
    PredecessorEntry* entry = predecessors_.allocate();
    entry->predecessor = predecessor;
    entry->count.set(0);
    entry->next.store(nullptr, std::memory_order_relaxed);
    (tail != nullptr ? tail->next : node->first_predecessor).store(entry, std::memory_order_release);
    return entry;
}

[[gnu::always_inline]] inline Frame& ThreadState::push(TaskContext& context, NodeKind kind, const RegionRecord& region,
                                                       Ticks now, const Node* fork_origin) {
    Node* caller = context.current_node();
    if (folds_under(context, caller)) [[unlikely]] {
        return push_folded(context, kind, region, now, fork_origin);
    }
    return push_under(context, caller, kind, region, now, fork_origin);
}

__attribute__((noinline)) Frame& ThreadState::push_folded(TaskContext& context, NodeKind kind,
                                                          const RegionRecord& region, Ticks now, const Node* fork_origin) {
    if (context.frames.size() >= kMaxOpenFrames) [[unlikely]] {
        ++context.dropped_levels;
        frames_dropped_.store(frames_dropped_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        overflow_frame_ = Frame(fold_point(context), now, context.suspended_total);
        return overflow_frame_;
    }
    Frame& frame = push_under(context, fold_point(context), kind, region, now, fork_origin);
    frame.folded = true;
    Node* node = frame.node;
    node->max_active_instances.raise_to(++node->active_instances);
    return frame;
}

[[gnu::always_inline]] inline Frame& ThreadState::push_under(TaskContext& context, Node* parent, NodeKind kind,
                                                             const RegionRecord& region, Ticks now,
                                                             const Node* fork_origin) {
    Node* caller = context.current_node();
    Node* last_exited = context.last_exited();
    Node* node = child_of(parent, kind, &region, fork_origin);
    // A worker's part of a parallel region merges into the master's node, so
    // in the profile it was entered right after that node's parent, the fork
    // point, not after whatever the worker did in its previous team.
    const Node* predecessor = fork_origin != nullptr  ? fork_origin->parent
                              : last_exited != nullptr ? last_exited
                                                       : caller;
    count_predecessor(node, predecessor, 1);
    Frame& frame = context.frames.emplace_back(node, now, context.suspended_total);
    // --- counter extension point (enter) ---
    if (counters_ != nullptr) [[unlikely]] {
        CounterMarks& marks = context.counter_marks.emplace_back();
        read_counters(marks.at_enter);
        marks.suspended_at_enter = context.counters_suspended_total;
    }
    return frame;
}

// What push() does where it needs no call: the context does not fold, no
// counters are read, the frame stack has room, and the node and its
// control-flow entry are in their hit caches.
[[gnu::always_inline]] inline Frame* ThreadState::push_cached(TaskContext& context, NodeKind kind,
                                                              const RegionRecord& region, Ticks now) {
    FrameStack& frames = context.frames;
    const bool at_root = frames.empty();
    Node* caller = at_root ? context.root : frames.back().node;
    if (folds_under(context, caller) || counters_ != nullptr || frames.full()) [[unlikely]] return nullptr;
    Node* node = cached_child_or(caller, child_key(kind, &region, nullptr), nullptr, [] { return nullptr; });
    if (node == nullptr) [[unlikely]] return nullptr;
    Node* last_exited = at_root ? context.root_last_exited : frames.back().last_exited_child;
    PredecessorEntry* entry = cached_predecessor(node, last_exited != nullptr ? last_exited : caller);
    if (entry == nullptr) [[unlikely]] return nullptr;
    entry->count.add(1);
    return &frames.emplace_back_within_capacity(node, now, context.suspended_total);
}

namespace {
[[gnu::always_inline]] inline void record(NodeMetrics& metrics, Ticks measured, bool outermost) {
    if (outermost) [[likely]] {
        metrics.record_visit(measured);
    } else {
        // A recursive visit: its time is part of the enclosing visit's.
        metrics.visits.add(1);
    }
}
}  // namespace

template <bool kPlain>
[[gnu::always_inline]] inline void ThreadState::pop(TaskContext& context, Ticks now) {
    const Visit visit = leave<kPlain>(context, now);
    record(visit.node->metrics, visit.measured, visit.outermost);
}

template <bool kPlain>
[[gnu::always_inline]] inline ThreadState::Visit ThreadState::leave(TaskContext& context, Ticks now) {
    Frame& frame = context.frames.back();
    assert(!kPlain || (!frame.folded && counters_ == nullptr));
    Node* node = frame.node;
    const Ticks suspended = context.suspended_total - frame.suspended_at_enter;
    const Ticks visit = elapsed(frame.entered, now);
    const Ticks measured = visit > suspended ? visit - suspended : 0;
    const bool outermost = kPlain || !frame.folded || leave_folded(context, frame, measured);
    // --- counter extension point (exit) ---
    if (!kPlain && counters_ != nullptr) [[unlikely]] {
        const CounterMarks& marks = context.counter_marks.back();
        CounterValues values{};
        read_counters(values);
        for (std::size_t i = 0; i < values.size() && outermost; ++i) {
            const std::uint64_t paused = context.counters_suspended_total[i] - marks.suspended_at_enter[i];
            const std::uint64_t delta = elapsed(marks.at_enter[i], values[i]);
            node->metrics.counters[i].add(delta > paused ? delta - paused : 0);
        }
        context.counter_marks.pop_back();
    }
    context.frames.pop_back();
    context.last_exited() = node;
    return {node, measured, outermost};
}

void ThreadState::pop_left_open(TaskContext& context, Ticks now) {
    Frame& frame = context.frames.back();
    if (frame.startup_at_join) count_startup(frame);
    pop(context, now);
}

__attribute__((noinline)) bool ThreadState::leave_folded(TaskContext& context, const Frame& frame, Ticks visit) {
    Node* node = frame.node;
    // The caller is the fold point (at max_depth, or an included task's
    // creation) or another folded frame: frames.size() >= 2.
    Frame& enclosing = context.frames[context.frames.size() - 2];
    if (frame.untimed) {
        close_untimed(enclosing, frame);
        return false;
    }
    node->metrics.folded_exclusive.add(visit > frame.folded_children ? visit - frame.folded_children : 0);
    enclosing.folded_children += visit;
    return --node->active_instances == 0;
}

[[gnu::always_inline]] inline void ThreadState::close_untimed(Frame& enclosing, const Frame& frame) {
    // Its visit is part of the enclosing one of the same node, which still
    // has to leave out the time of the folded frames inside it.
    assert(frame.untimed && enclosing.node == frame.node && frame.node->active_instances > 1);
    enclosing.folded_children += frame.folded_children;
    --frame.node->active_instances;
}

// push_folded's result for a frame that enters_own_folded_node, without
// the child's lookup or a clock read (no counters: their marks need a
// push_under).
[[gnu::always_inline]] inline Frame& ThreadState::push_untimed(TaskContext& context) {
    assert(counters_ == nullptr && context.frames.size() < kMaxOpenFrames);
    const Frame& enclosing = context.frames.back();
    Node* const node = enclosing.node;
    count_predecessor(node, enclosing.last_exited_child != nullptr ? enclosing.last_exited_child : node, 1);
    Frame& frame = context.frames.emplace_back(node, Ticks{0}, context.suspended_total);
    frame.folded = true;
    frame.untimed = true;
    node->max_active_instances.raise_to(++node->active_instances);
    return frame;
}

inline Frame* ThreadState::open_frame(TaskContext& context, NodeKind kind, const RegionRecord& region, Ticks now) {
    if (!context.frames.empty()) [[likely]] {
        Frame& top = context.frames.back();
        if (top.node->region == &region && top.node->kind == kind) [[likely]] return &top;
    }
    return open_frame_below_top(context, kind, region, now);
}

__attribute__((noinline)) Frame* ThreadState::open_frame_below_top(TaskContext& context, NodeKind kind,
                                                                   const RegionRecord& region, Ticks now) {
    auto& frames = context.frames;
    for (std::size_t i = frames.size(); i-- > 0;) {
        if (frames[i].node->region != &region || frames[i].node->kind != kind) continue;
        // Regions left open inside the one that ends now: cancellation, or
        // an instrumented exit path that skipped their end events.
        while (frames.size() > i + 1) {
            const Node* left_open = frames.back().node;
            if (left_open->kind == NodeKind::TaskRoot || left_open->kind == NodeKind::TaskStub) break;
            warn(left_open->region, fmt::format("{}: left open, closed at the end of the enclosing {}",
                                                describe(left_open->region), describe(&region)));
            pop_left_open(context, now);
        }
        return frames.size() == i + 1 ? &frames.back() : nullptr;
    }
    return nullptr;
}

[[gnu::always_inline]] inline bool ThreadState::EventScope::open(ThreadState& thread, std::uint32_t outer) {
    thread.events_in_flight_.store(outer + 1, std::memory_order_relaxed);
    // Loaded once: the ordering is a compiler barrier, after which a
    // member would be loaded again.
    const Measurement& measurement = thread.measurement_;
    measurement.order_event_start();
    return measurement.stopped();
}

template <bool kEndsInlineCounting>
[[gnu::always_inline]] inline ThreadState::EventScope::EventScope(ThreadState& thread,
                                                                  std::bool_constant<kEndsInlineCounting>)
    : thread_(thread), outer_(thread.events_in_flight_.load(std::memory_order_relaxed)),
      refused_(open(thread, outer_)) {
    // Whatever the event changes, the instrumented code counts nothing
    // until an untimed visit fills the cache again; what it counted comes
    // first.
    if constexpr (kEndsInlineCounting) {
        if (const unsigned mode = thread.inline_mode(); mode != 0) [[unlikely]]
            thread.end_inline_counting(mode, refused_);
    }
}

[[gnu::always_inline]] inline ThreadState::EventScope::EventScope(ThreadState& thread, Handover handed)
    : thread_(thread),
      outer_(thread.events_in_flight_.load(std::memory_order_relaxed) - (handed.opened ? 1 : 0)),
      refused_(handed.opened ? thread.measurement_.stopped() : open(thread, outer_)) {
    if (const unsigned mode = thread.inline_mode(); mode != 0) [[unlikely]]
        thread.end_inline_counting(mode, refused_);
}

[[gnu::always_inline]] inline ThreadState::CommonCaseScope::CommonCaseScope(ThreadState& thread)
    : thread_(thread), refused_(EventScope::open(thread, thread.events_in_flight_.load(std::memory_order_relaxed))) {}

void ThreadState::end_inline_counting(unsigned mode, bool refused) {
    shared(untimed_cache_.mode).store(0, std::memory_order_relaxed);
    if (!refused && slots_may_hold_counts(mode)) add_slot_counts();
}

// The innermost frame if it is the one an exit of (kind, region) closes and
// its pop takes no call: not folded, no counters read, no entry dropped.
[[gnu::always_inline]] inline Frame* ThreadState::innermost_plain_frame(TaskContext& context, NodeKind kind,
                                                                        const RegionRecord& region) {
    if (context.frames.empty() || context.dropped_levels != 0 || counters_ != nullptr) [[unlikely]] return nullptr;
    Frame& top = context.frames.back();
    if (top.node->region != &region || top.node->kind != kind || top.folded) [[unlikely]] return nullptr;
    return &top;
}

// `frame` is the innermost one, (kind, region)'s: its exit phase, then its pop.
template <bool kPlain>
[[gnu::always_inline]] inline void ThreadState::close_frame(TaskContext& context, Frame& frame,
                                                            const RegionRecord& region, Ticks now, NodeKind kind) {
    if (frame.in_exit_phase) {
        frame.node->metrics.exit.add(elapsed(frame.phase_mark, now));
    }
    if (kind == NodeKind::ImplicitBarrier) [[unlikely]] {
        explicit_barrier_region_ = &region;
        explicit_barrier_exit_ = now;
    }
    pop<kPlain>(context, now);
}

// The common case of a timed event takes no call (push_cached,
// innermost_plain_frame), so that it needs no stack frame and no saved
// registers.  Anything else, counts of the instrumented code in the untimed
// cache to add included, is the event's general form, out of line, which
// the common case tail-calls with its scope (EventScope::hand_over); the
// common case changes nothing before it knows it applies.
void ThreadState::enter(const RegionRecord& region, Ticks now, NodeKind kind) {
    EventScope::Handover scope{};
    {
        CommonCaseScope event(*this);
        if (event.applies() && push_cached(*current_, kind, region, now) != nullptr) [[likely]] return;
        scope = event.hand_over();
    }
    enter_in_general(region, now, kind, scope);
}

__attribute__((noinline)) void ThreadState::enter_in_general(const RegionRecord& region, Ticks now, NodeKind kind,
                                                             EventScope::Handover scope) {
    const EventScope event(*this, scope);
    if (event.refused()) [[unlikely]] return;
    push(*current_, kind, region, now);
}

void ThreadState::count(const RegionRecord& region) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    count_untimed_visit(*current_, NodeKind::Region, region);
}

void ThreadState::exit(const RegionRecord& region, Ticks now, NodeKind kind) {
    EventScope::Handover scope{};
    {
        CommonCaseScope event(*this);
        if (event.applies()) [[likely]] {
            if (Frame* frame = innermost_plain_frame(*current_, kind, region)) [[likely]]
                return close_frame<true>(*current_, *frame, region, now, kind);
        }
        scope = event.hand_over();
    }
    exit_in_general(region, now, kind, scope);
}

__attribute__((noinline)) void ThreadState::exit_in_general(const RegionRecord& region, Ticks now, NodeKind kind,
                                                            EventScope::Handover scope) {
    const EventScope event(*this, scope);
    if (event.refused()) [[unlikely]] return;
    exit_in_scope(region, now, kind);
}

[[gnu::always_inline]] inline void ThreadState::exit_in_scope(const RegionRecord& region, Ticks now, NodeKind kind,
                                                              bool part_of_team) {
    if (absorb_dropped_exit()) [[unlikely]] return;
    Frame* frame = open_frame(*current_, kind, region, now);
    if (frame == nullptr) [[unlikely]] {
        return warn_unmatched(region, "end event without a matching begin; ignored");
    }
    // The exit of a part left out (see parallel_begin): nothing to measure.
    if (part_of_team && frame->part_elided) return;
    close_frame<false>(*current_, *frame, region, now, kind);
}

void ThreadState::exit_moving_bytes(const RegionRecord& region, Ticks now, std::uint64_t bytes) {
    {
        const EventScope event(*this);
        if (event.refused() || in_dropped_frame()) [[unlikely]] return;
        if (Frame* frame = open_frame(*current_, NodeKind::Region, region, now)) frame->node->metrics.bytes.add(bytes);
    }
    exit(region, now);
}

void ThreadState::begin_body(const RegionRecord& region, Ticks now) { body_step<BodyStep::Begin>(region, now); }

void ThreadState::end_body(const RegionRecord& region, Ticks now) { body_step<BodyStep::End>(region, now); }

// The construct is usually the innermost open one: found and updated
// without a call, the event needs no stack frame (a critical section's
// body begin and end run while it is held, delaying every thread waiting
// for it).  Anything else takes the event again, out of line; so do
// counts of the instrumented code in the untimed cache, added by that
// event's scope (a call here would need the frame).
template <ThreadState::BodyStep S>
[[gnu::always_inline]] inline void ThreadState::body_step(const RegionRecord& region, Ticks now) {
    {
        if (inline_mode() != 0) [[unlikely]] return body_step_in_general<S>(region, now);
        const EventScope event(*this, EventScope::kInlineModeSeenClear);
        if (event.refused()) [[unlikely]] return;
        TaskContext& context = *current_;
        if (!context.frames.empty() && context.dropped_levels == 0) [[likely]] {
            Frame& top = context.frames.back();
            if (top.node->region == &region && top.node->kind == NodeKind::Region) [[likely]] {
                return take_body_step<S>(top, region, now);
            }
        }
    }
    body_step_in_general<S>(region, now);
}

template <ThreadState::BodyStep S>
__attribute__((noinline)) void ThreadState::body_step_in_general(const RegionRecord& region, Ticks now) {
    const EventScope event(*this);
    if (event.refused() || in_dropped_frame()) [[unlikely]] return;
    Frame* frame = open_frame_below_top(*current_, NodeKind::Region, region, now);
    if (frame == nullptr) [[unlikely]] {
        return warn_unmatched(region, S == BodyStep::Begin ? "body begins outside the construct; ignored"
                                                           : "body ends outside the construct; ignored");
    }
    take_body_step<S>(*frame, region, now);
}

template <ThreadState::BodyStep S>
[[gnu::always_inline]] inline void ThreadState::take_body_step(Frame& frame, const RegionRecord& region, Ticks now) {
    NodeMetrics& metrics = frame.node->metrics;
    if constexpr (S == BodyStep::Begin) {
        if (has_enter_exit_phases(region.info.kind)) metrics.enter.add(elapsed(frame.phase_mark, now));
    } else {
        metrics.body.add(elapsed(frame.phase_mark, now));
        metrics.body_count.add(1);
        frame.in_exit_phase = has_enter_exit_phases(region.info.kind);
    }
    frame.phase_mark = now;
}

namespace {

// The sections construct a section's own region runs in: the frame below it.
Frame* enclosing_sections(FrameStack& frames) {
    if (frames.empty()) return nullptr;
    const RegionRecord* region = frames.back().node->region;
    const bool sections = region != nullptr && (region->info.kind == RegionKind::Sections ||
                                                region->info.kind == RegionKind::ParallelSections);
    return sections && frames.back().node->kind == NodeKind::Region ? &frames.back() : nullptr;
}

}  // namespace

void ThreadState::section_begin(const RegionRecord& section, Ticks now) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    if (Frame* sections = enclosing_sections(current_->frames)) sections->phase_mark = now;
    enter(section, now);
}

void ThreadState::section_end(const RegionRecord& section, Ticks now) {
    const EventScope event(*this);
    if (event.refused() || absorb_dropped_exit()) [[unlikely]] return;
    exit(section, now);
    if (Frame* sections = enclosing_sections(current_->frames)) {
        sections->node->metrics.body.add(elapsed(sections->phase_mark, now));
        sections->node->metrics.body_count.add(1);
        sections->phase_mark = now;
    }
}

void ThreadState::exit_named(std::string_view name, std::string_view file, int line, Ticks now) {
    const EventScope event(*this);
    if (event.refused() || absorb_dropped_exit()) [[unlikely]] return;
    const auto& frames = current_->frames;
    for (std::size_t i = frames.size(); i-- > 0;) {
        const RegionRecord* region = frames[i].node->region;
        if (frames[i].node->kind == NodeKind::Region && region != nullptr &&
            region->info.kind == RegionKind::UserRegion && region->info.name && *region->info.name == name) {
            region->note_end(file, line);
            exit(*region, now);
            return;
        }
    }
    const RegionRecord* innermost = frames.empty() ? nullptr : frames.back().node->region;
    warn(nullptr, fmt::format("user region '{}' ended at {}:{} but is not open there{}; ignored", name, file, line,
                              innermost != nullptr ? fmt::format(" (innermost open: {})", describe(innermost)) : ""));
}

// A folded fork node may be forked again inside its own open instance (a
// parallel region in a deep recursion): the outer team's workers may still
// report into their record, so each open instance has one of its own.
[[gnu::always_inline]] inline TeamRecord& ThreadState::team_record(Node& node) {
    if (node.active_instances <= 1 && node.team != nullptr) [[likely]] return *node.team;
    return nested_team_record(node);
}

__attribute__((noinline)) TeamRecord& ThreadState::nested_team_record(Node& node) {
    TeamRecord** record = &node.team;
    for (std::uint32_t open = node.active_instances;; --open) {
        if (*record == nullptr) [[unlikely]] *record = teams_.emplace_back(std::make_unique<TeamRecord>()).get();
        if (open <= 1) [[likely]] return **record;
        record = &(*record)->nested;
    }
}

void ThreadState::fork(const RegionRecord& region, Ticks now, std::uint64_t key, std::uint32_t team_size,
                       TaskHandle* old_task) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] {
        if (old_task != nullptr) *old_task = 0;
        return;
    }
    if (old_task != nullptr) *old_task = current_->handle;
    if (!current_->frames.empty() && current_->frames.back().part_elided) [[unlikely]] {
        enter_elided_part(region, now);
    }
    Frame& frame = push(*current_, NodeKind::Region, region, now);
    frame.fork_pending = true;
    // The previous instance of this team was joined: its record is free.
    constexpr std::uint32_t kDefaultTeam = 8;
    TeamRecord& team = team_record(*frame.node);
    frame.team = &team;
    const std::uint32_t wanted = std::max(team_size, kDefaultTeam);
    const bool grown = team.capacity < wanted;
    if (grown) [[unlikely]] {
        team.members = std::make_unique<TeamMember[]>(wanted);
        team.capacity = wanted;
    }
    // Reports that no join took over (the fork frame was closed without one)
    // are not this instance's: their members go back to their workers (see
    // TeamMember).  All in lines the master read last.
    for (std::uint32_t i = 0, used = team.members_in_use(measurement_.max_team_size()); i < used; ++i) {
        if (team.members[i].node.load(std::memory_order_relaxed) != nullptr) [[unlikely]]
            team.members[i].node.store(nullptr, std::memory_order_release);
    }
    if (team.claimed.load(std::memory_order_relaxed) != 0) [[unlikely]]
        team.claimed.store(0, std::memory_order_relaxed);
    team.master_barrier = nullptr;
    team.forked.store(now, std::memory_order_relaxed);
    arrival_slot_ = nullptr;
    if (team_size == 1) return;
    if (own_fork_slot_.slot == nullptr || own_fork_slot_.key != key) [[unlikely]]
        own_fork_slot_ = {key, &measurement_.forks().claim(key)};
    ForkTable::publish(*own_fork_slot_.slot, ForkRecord{frame.node, id_, &team}, grown);
}

[[gnu::always_inline]] inline bool ThreadState::begin_own_team(const RegionRecord& region, Ticks now,
                                                               TeamBegin begin) {
    if (current_->frames.empty()) return false;
    Frame& top = current_->frames.back();
    if (!top.fork_pending || top.node->region != &region) return false;
    top.fork_pending = false;
    top.node->metrics.startup.add(elapsed(top.phase_mark, now));
    top.phase_mark = now;
    begin_body_sample(top, now);
    if (current_ != implicit_) {
        // Forked inside an explicit task: that task is the implicit task of
        // the new team for this thread.
        top.restores_implicit = implicit_;
        implicit_ = current_;
    }
    if (begin == TeamBegin::WithPart) begin_part(top, region, now);
    return true;
}

[[gnu::always_inline]] inline void ThreadState::begin_part(Frame& team, const RegionRecord& region, Ticks now) {
    // A folded team frame's part is the same folded node: entering it counts
    // a nested visit there, which leaving it out would change.
    if (elides_part(region) && !team.folded && &team != &overflow_frame_) [[likely]] {
        team.part_elided = true;
        return;
    }
    enter_part(region, now);
}

// Out of line: the begins that inline begin_part stay without a stack frame.
__attribute__((noinline)) Frame& ThreadState::enter_part(const RegionRecord& region, Ticks now) {
    return push(*current_, NodeKind::Region, region, now);
}

__attribute__((noinline)) void ThreadState::enter_elided_part(const RegionRecord& region, Ticks now) {
    Frame& team = current_->frames.back();
    if (team.node->region != &region) return;
    // A team of the region forked directly in its own elided part
    // (recursion): without the part, the profile would take the nested
    // instance's node for the part.  The part's own figures are not
    // reported, so it may begin here.
    team.part_elided = false;
    Node* last_in_part = team.last_exited_child;
    enter_part(region, now).last_exited_child = last_in_part;
}

template <TeamBegin B>
bool ThreadState::parallel_begin_as_master(const RegionRecord& region, Ticks now) {
    const EventScope event(*this);
    return event.refused() || begin_own_team(region, now, B);
}
template bool ThreadState::parallel_begin_as_master<TeamBegin::Alone>(const RegionRecord&, Ticks);
template bool ThreadState::parallel_begin_as_master<TeamBegin::WithPart>(const RegionRecord&, Ticks);

template <TeamBegin B>
void ThreadState::parallel_begin(const RegionRecord& region, Ticks now, const TeamPosition& position) {
    const EventScope event(*this);
    if (event.refused() || begin_own_team(region, now, B)) [[unlikely]] return;
    begin_worker_part<B>(region, now, position);
}
template void ThreadState::parallel_begin<TeamBegin::Alone>(const RegionRecord&, Ticks, const TeamPosition&);
template void ThreadState::parallel_begin<TeamBegin::WithPart>(const RegionRecord&, Ticks, const TeamPosition&);

template <TeamBegin B>
void ThreadState::parallel_begin_as_worker(const RegionRecord& region, Ticks now, const TeamPosition& position) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    begin_worker_part<B>(region, now, position);
}
template void ThreadState::parallel_begin_as_worker<TeamBegin::Alone>(const RegionRecord&, Ticks,
                                                                      const TeamPosition&);
template void ThreadState::parallel_begin_as_worker<TeamBegin::WithPart>(const RegionRecord&, Ticks,
                                                                         const TeamPosition&);

template <TeamBegin B>
[[gnu::always_inline]] inline void ThreadState::begin_worker_part(const RegionRecord& region, Ticks now,
                                                                  const TeamPosition& position) {
    TaskContext& context = *current_;
    arrival_slot_ = nullptr;
    // The team's size, as far as it is seen (every thread of a team begins
    // it): the master's join reads the members below it.
    if (position.thread_num > 0) [[likely]] measurement_.note_team_size(position.thread_num + 1);
    if (team_fork_slot_.slot == nullptr || team_fork_slot_.key != position.parent_key) [[unlikely]]
        team_fork_slot_ = {position.parent_key, measurement_.forks().slot_of(position.parent_key)};
    const ForkRecord fork = team_fork_slot_.slot != nullptr ? ForkTable::read(*team_fork_slot_.slot) : ForkRecord{};
    team_level_.store(position.level, std::memory_order_relaxed);
    if (fork.node != nullptr) parent_thread_.store(fork.thread, std::memory_order_relaxed);
    Frame& frame = push(context, NodeKind::Region, region, now, fork.node);
    frame.worker = true;
    frame.phase_mark = now;
    if (TeamRecord* team = fork.node != nullptr ? fork.team : nullptr) [[likely]] {
        frame.team = team;
        frame.member = position.thread_num > 0 ? position.thread_num - 1
                                               : team->claimed.fetch_add(1, std::memory_order_relaxed);
        // The startup is the master's to add at the join, where it knows the
        // fork's time, unless this visit is recorded here: without a member,
        // or folded (its time is then the enclosing folded frame's too).
        frame.startup_at_join = frame.member < team->capacity && !frame.folded && &frame != &overflow_frame_;
        if (!frame.startup_at_join) [[unlikely]] count_startup(frame);
    }
    begin_body_sample(frame, now);
    if (B == TeamBegin::WithPart) begin_part(frame, region, now);
}

__attribute__((noinline)) void ThreadState::count_startup(Frame& frame) {
    frame.startup_at_join = false;
    const Ticks forked = frame.team->forked.load(std::memory_order_relaxed);
    if (forked > frame.entered) return;
    frame.node->metrics.startup.add(frame.entered - forked);
    frame.entered = forked;
}

__attribute__((noinline)) void ThreadState::start_cpu_sample(Frame& frame, Ticks now) {
    frame.node->body_begun = true;
    if (!measurement_.samples_cpu()) return;
    last_cpu_sample_ = now;
    frame.cpu_sampled = true;
    frame.cpu_at_body_begin = cpu_.read();
}

__attribute__((noinline)) void ThreadState::finish_cpu_sample(Frame& frame, Ticks body) {
    const ThreadCpu end = cpu_.read();
    const ThreadCpu& begin = frame.cpu_at_body_begin;
    NodeMetrics& m = frame.node->metrics;
    m.cpu_samples.add(1);
    m.cpu_sampled.add(body);
    m.cpu_ns.add(elapsed(begin.cpu_ns, end.cpu_ns));
    m.run_delay_ns.add(elapsed(begin.run_delay_ns, end.run_delay_ns));
    frame.cpu_sampled = false;
}

void ThreadState::parallel_end(const RegionRecord& region, Ticks now) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    end_team_in_scope(region, now);
}

void ThreadState::exit_part_and_end_team(const RegionRecord& part, const RegionRecord& region, Ticks now) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    exit_in_scope(part, now, NodeKind::Region, true);
    end_team_in_scope(region, now);
}

void ThreadState::exit_part(const RegionRecord& part, Ticks now) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    exit_in_scope(part, now, NodeKind::Region, true);
}

[[gnu::always_inline]] inline void ThreadState::end_team_in_scope(const RegionRecord& region, Ticks now) {
    if (in_dropped_frame()) [[unlikely]] return;
    Frame* frame = open_frame(*current_, NodeKind::Region, region, now);
    if (frame == nullptr) [[unlikely]] {
        return warn_unmatched(region, "parallel end without begin; ignored");
    }
    Node* barrier = join_barrier(*frame, region);
    const Ticks body = elapsed(frame->phase_mark, now);
    if (frame->cpu_sampled) [[unlikely]] finish_cpu_sample(*frame, body);
    frame->phase_mark = now;
    if (!frame->worker) {
        frame->node->metrics.body.add(body);
        if (TeamRecord* team = frame->team) {
            team->master_barrier = barrier;
            team->master_tasks_at_arrival = task_time_;
        }
        return;
    }
    // A worker's part of the region ends here; it sees no join, so it hands
    // its figures to the master, who completes its visit (startup, barrier
    // wait, shutdown) at the join and records it (see TeamMember).
    TeamMember* member = member_to_write(*frame);
    if (member == nullptr && frame->startup_at_join) [[unlikely]]
        count_startup(*frame);
    const Ticks begun = frame->entered;
    const Visit visit = leave(*current_, now);
    if (member != nullptr) [[likely]] {
        member->barrier = barrier;
        member->begun = begun;
        member->end = now;
        member->visit = visit.measured;
        member->body = body;
        member->outermost = visit.outermost;
        member->tasks.store(0, std::memory_order_relaxed);
        member->node.store(visit.node, std::memory_order_release);
        arrival_slot_ = member;
        tasks_at_arrival_ = task_time_;
        return;
    }
    visit.node->metrics.body.add(body);
    record(visit.node->metrics, visit.measured, visit.outermost);
    if (barrier != nullptr) barrier->metrics.record_visit(0);
}

Node* ThreadState::join_barrier(Frame& frame, const RegionRecord& region) {
    const auto measured_here = [&](const RegionRecord* construct) {
        return explicit_barrier_region_ == construct && explicit_barrier_exit_ >= frame.phase_mark;
    };
    if (frame.folded || measured_here(&region)) return nullptr;
    // A worksharing construct that ended the region without a barrier of its
    // own (implicitBarrier=join, GCC): the join barrier is its barrier.
    // An elided part (see parallel_begin) is the last the region left, and
    // stands for the region's own node.
    Node* last = frame.part_elided ? nullptr : frame.last_exited_child;
    if (last != nullptr && last->kind == NodeKind::Region && last->region->barrier_at_join &&
        last->depth < max_depth_ && !measured_here(last->region)) {
        Node* barrier = child_of(last, NodeKind::ImplicitBarrier, last->region, nullptr);
        count_predecessor(barrier, last, 1);
        return barrier;
    }
    Node* barrier = child_of(frame.node, NodeKind::ImplicitBarrier, &region, nullptr);
    count_predecessor(barrier, last != nullptr ? last : frame.node, 1);
    frame.last_exited_child = barrier;
    return barrier;
}

[[gnu::always_inline]] inline TeamMember* ThreadState::member_to_write(const Frame& frame) {
    TeamRecord* team = frame.team;
    if (team == nullptr || frame.member >= team->capacity) [[unlikely]] return nullptr;
    TeamMember& member = team->members[frame.member];
    // Acquire: the master's reads of this member's previous report happen
    // before the writes of this one (see TeamMember).
    if (member.node.load(std::memory_order_acquire) != nullptr) [[unlikely]] return nullptr;
    return &member;
}

void ThreadState::record_join_wait(Node& barrier, Node& part, Ticks waited) {
    barrier.metrics.record_visit(waited);
    // The wait of a worksharing construct's barrier at the join is part of
    // the construct's time too.
    if (barrier.parent != &part) barrier.parent->metrics.inclusive.add(waited);
}

void ThreadState::complete_team(Frame& frame, Ticks now) {
    NodeMetrics& own = frame.node->metrics;
    TeamRecord* team = frame.team;
    if (team == nullptr) {
        own.shutdown.add(elapsed(frame.phase_mark, now));
        return;
    }
    // Every thread arrived before the join (the OpenMP runtime's join
    // barrier); the barrier released the team when the last one arrived.
    // Workers that know their number wrote the member below it: every
    // worker noted its team's size before it arrived.
    const std::uint32_t members = team->members_in_use(measurement_.max_team_size());
    Ticks latest = frame.phase_mark;
    for (std::uint32_t i = 0; i < members; ++i) {
        if (team->members[i].node.load(std::memory_order_acquire) != nullptr) {
            latest = std::max(latest, team->members[i].end);
        }
    }
    // A thread's wait: from its arrival to the last arrival, less the tasks
    // it ran meanwhile.  Workers' nodes are written only here, by the master,
    // each visit from the fork (frame.entered): the worker's startup, then
    // its part up to its arrival.
    // The last arrival releases the workers, so a worker's part ends there:
    // the rest up to the join is the master's shutdown.  Its wait is its
    // exitBarT, or, when the region's barrier was measured before its end
    // (OPARI2's explicit barrier), its shutdown; a thread's overheads thus
    // never exceed its part of the region.
    const auto wait = [latest](Ticks arrival, Ticks tasks) { return elapsed(arrival + tasks, latest); };
    for (std::uint32_t i = 0; i < members; ++i) {
        TeamMember& member = team->members[i];
        Node* worker = member.node.load(std::memory_order_acquire);
        if (worker == nullptr) continue;
        const Ticks waited = wait(member.end, member.tasks.load(std::memory_order_relaxed));
        const Ticks startup = elapsed(frame.entered, member.begun);
        record(worker->metrics, startup + member.visit + waited, member.outermost);
        if (startup != 0) worker->metrics.startup.add(startup);
        if (member.barrier != nullptr) {
            worker->metrics.body.add(member.body + waited);
            record_join_wait(*member.barrier, *worker, waited);
        } else {
            worker->metrics.body.add(member.body);
            worker->metrics.shutdown.add(waited);
        }
        // The member back to its worker, after the last read of it.
        member.node.store(nullptr, std::memory_order_release);
    }
    if (Node* barrier = std::exchange(team->master_barrier, nullptr)) {
        const Ticks waited = wait(frame.phase_mark, task_time_ - team->master_tasks_at_arrival);
        record_join_wait(*barrier, *frame.node, waited);
        own.body.add(waited);
        own.shutdown.add(elapsed(latest, now));
    } else {
        own.shutdown.add(elapsed(frame.phase_mark, now));
    }
}

void ThreadState::join(const RegionRecord& region, Ticks now, std::optional<TaskHandle> resumed) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    if (resumed.has_value()) resume_in_scope(*resumed, now);
    if (absorb_dropped_exit()) [[unlikely]] return;
    Frame* frame = open_frame(*current_, NodeKind::Region, region, now);
    if (frame == nullptr) [[unlikely]] {
        return warn_unmatched(region, "join without fork; ignored");
    }
    complete_team(*frame, now);
    if (frame->restores_implicit != nullptr) implicit_ = frame->restores_implicit;
    pop(*current_, now);
}

void ThreadState::lock_acquired(const RegionRecord& region, const void* lock, Ticks called, Ticks acquired) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    TaskContext& context = *current_;
    const Ticks wait = elapsed(called, acquired);
    Node* node;
    if (!folds_under(context, context.current_node()) && counters_ == nullptr) [[likely]] {
        node = visit_without_frame(context, NodeKind::Region, region);
        node->metrics.record_visit(wait);
    } else {
        node = lock_visit_in_frame(region, called, acquired);
        if (node == nullptr) [[unlikely]] return;
    }
    node->metrics.enter.add(wait);
    held_locks_.push_back({lock, node, acquired});
}

__attribute__((noinline)) Node* ThreadState::lock_visit_in_frame(const RegionRecord& region, Ticks called,
                                                                  Ticks acquired) {
    const Frame& frame = push(*current_, NodeKind::Region, region, called);
    if (&frame == &overflow_frame_ && absorb_dropped_exit()) [[unlikely]] return nullptr;
    Node* node = frame.node;
    pop(*current_, acquired);
    return node;
}

void ThreadState::lock_released(const void* lock, Ticks called, Ticks returned) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    // Usually the newest hold ends.  None: acquired while measurement was
    // off, nothing to attribute.
    if (held_locks_.empty() || held_locks_.back().lock != lock) [[unlikely]] {
        if (!newest_hold_to_back(lock)) return;
    }
    const HeldLock& held = held_locks_.back();
    NodeMetrics& metrics = held.node->metrics;
    metrics.body.add(elapsed(held.acquired, called));
    metrics.body_count.add(1);
    metrics.exit.add(elapsed(called, returned));
    held_locks_.pop_back();
}

__attribute__((noinline)) bool ThreadState::newest_hold_to_back(const void* lock) {
    const auto newest = std::find_if(held_locks_.rbegin(), held_locks_.rend(),
                                     [lock](const HeldLock& held) { return held.lock == lock; });
    if (newest == held_locks_.rend()) return false;
    const auto position = std::prev(newest.base());
    std::rotate(position, std::next(position), held_locks_.end());
    return true;
}

TaskHandle ThreadState::current_task() {
    const EventScope event(*this);
    return event.refused() ? 0 : current_->handle;
}

// As enter() and exit(): a common case without a call, the rest out of line.
void ThreadState::enter_scheduling_point(const RegionRecord& region, Ticks now, TaskHandle* old_task, NodeKind kind) {
    EventScope::Handover scope{};
    {
        CommonCaseScope event(*this);
        if (event.applies()) [[likely]] {
            TaskContext& context = *current_;
            if (push_cached(context, kind, region, now) != nullptr) [[likely]] {
                if (old_task != nullptr) *old_task = context.handle;
                return;
            }
        }
        scope = event.hand_over();
    }
    enter_scheduling_point_in_general(region, now, old_task, kind, scope);
}

__attribute__((noinline)) void ThreadState::enter_scheduling_point_in_general(const RegionRecord& region, Ticks now,
                                                                               TaskHandle* old_task, NodeKind kind,
                                                                               EventScope::Handover scope) {
    const EventScope event(*this, scope);
    if (event.refused()) [[unlikely]] {
        if (old_task != nullptr) *old_task = 0;
        return;
    }
    if (old_task != nullptr) *old_task = current_->handle;
    push(*current_, kind, region, now);
}

void ThreadState::exit_scheduling_point(const RegionRecord& region, TaskHandle task, Ticks now, NodeKind kind) {
    // Where the waiting task has usually been switched away from (the
    // children ran in the taskwait), its resume takes a call anyway.
    if (region.info.kind == RegionKind::Taskwait) [[unlikely]]
        return exit_scheduling_point_in_general(region, task, now, kind, {.opened = false});
    EventScope::Handover scope{};
    {
        CommonCaseScope event(*this);
        if (event.applies() && current_->handle == task) [[likely]] {
            if (Frame* frame = innermost_plain_frame(*current_, kind, region)) [[likely]]
                return close_frame<true>(*current_, *frame, region, now, kind);
        }
        scope = event.hand_over();
    }
    exit_scheduling_point_in_general(region, task, now, kind, scope);
}

__attribute__((noinline)) void ThreadState::exit_scheduling_point_in_general(const RegionRecord& region,
                                                                              TaskHandle task, Ticks now,
                                                                              NodeKind kind,
                                                                              EventScope::Handover scope) {
    const EventScope event(*this, scope);
    if (event.refused()) [[unlikely]] return;
    resume_in_scope(task, now);
    exit_in_scope(region, now, kind);
}

void ThreadState::end_task_creation(const RegionRecord& region, TaskHandle task) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    TaskContext& context = *current_;
    if (!context.frames.empty() && context.frames.back().untimed) {
        const Frame& top = context.frames.back();
        if (context.handle == task && context.dropped_levels == 0 && top.node->region == &region &&
            top.node->kind == NodeKind::Region) [[likely]] {
            // pop() of an untimed frame, which records only the visit.
            Node* const node = top.node;
            close_untimed(context.frames[context.frames.size() - 2], top);
            node->metrics.visits.add(1);
            context.frames.pop_back();
            context.last_exited() = node;
            return;
        }
    }
    const Ticks now = measurement_.now();
    resume_in_scope(task, now);
    exit_in_scope(region, now, NodeKind::Region);
}

[[gnu::always_inline]] inline void ThreadState::leave_stub(Ticks now) {
    if (Node* stub = std::exchange(current_->stub, nullptr)) [[likely]] {
        const Ticks ran = elapsed(current_->stub_entered, now);
        task_time_ += ran;
        stub->metrics.record_visit(ran);
    } else {
        auto& frames = implicit_->frames;
        if (frames.empty() || frames.back().node->kind != NodeKind::TaskStub) [[unlikely]] return;
        task_time_ += elapsed(frames.back().entered, now);
        pop(*implicit_, now);
    }
    // Tasks run in a join barrier are no wait there.
    if (arrival_slot_ != nullptr) arrival_slot_->tasks.store(task_time_ - tasks_at_arrival_, std::memory_order_relaxed);
}

[[gnu::always_inline]] inline void ThreadState::enter_stub(TaskContext& target, Ticks now) {
    TaskContext& host = *implicit_;
    if (counters_ == nullptr && !folds_under(host, host.current_node())) [[likely]] {
        target.stub = visit_without_frame(host, NodeKind::TaskStub, *target.region);
        target.stub_entered = now;
        return;
    }
    target.stub = nullptr;
    push(host, NodeKind::TaskStub, *target.region, now);
}

[[gnu::always_inline]] inline void ThreadState::switch_to(TaskContext& target, Ticks now) {
    if (current_ == &target) return;
    if (current_ != implicit_) {
        leave_stub(now);
        current_->suspended = true;
        current_->suspended_since = now;
        if (counters_ != nullptr) [[unlikely]] read_counters(current_->counters_suspended_since);
    }
    current_ = &target;
    if (current_ != implicit_) {
        if (target.suspended) {
            target.suspended_total += elapsed(target.suspended_since, now);
            target.suspended = false;
            if (counters_ != nullptr) [[unlikely]] {
                CounterValues values{};
                read_counters(values);
                for (std::size_t i = 0; i < values.size(); ++i) {
                    target.counters_suspended_total[i] += elapsed(target.counters_suspended_since[i], values[i]);
                }
            }
        }
        enter_stub(target, now);
    }
}

void ThreadState::resume(TaskHandle task, Ticks now) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    resume_in_scope(task, now);
}

__attribute__((noinline)) void ThreadState::resume_other(TaskHandle task, Ticks now) {
    if (implicit_->handle == task) {
        switch_to(*implicit_, now);
        return;
    }
    for (auto it = active_.rbegin(); it != active_.rend(); ++it) {
        if ((*it)->handle == task) {
            switch_to(**it, now);
            return;
        }
    }
    warn(nullptr, fmt::format("a thread resumed task {:#x}, which it never began; ignored",
                              static_cast<std::uint64_t>(task)));
}

namespace {
// The creation of `region` is the innermost open frame of `context`.
bool inside_creation(const TaskContext& context, const RegionRecord& region) {
    if (context.frames.empty()) return false;
    const Node* top = context.frames.back().node;
    return top->region == &region && top->kind == NodeKind::Region;
}
}  // namespace

[[gnu::always_inline]] inline bool ThreadState::begin_included_task(const RegionRecord& region, TaskHandle task) {
    if ((task & ~kFinalTaskBit) != make_task_handle(task_counter_) || !inside_creation(*current_, region)) [[likely]]
        return false;
    Frame& creation = current_->frames.back();
    creation.node->metrics.body_count.add(1);
    creation.included_final = (task & kFinalTaskBit) != 0;
    if (creation.included_final) ++current_->final_open;
    // Unsettled: counted in task_counter_, not known to have completed.
    // This task is one of the enclosing level's until its end.
    creation.enclosing_unsettled = task_counter_ - current_->included_settled - 1;
    current_->included_settled = task_counter_;
    if (current_->included_open++ == 0) current_->included_fold = creation.node;
    return true;
}

[[gnu::always_inline]] inline bool ThreadState::end_included_task(const RegionRecord& region) {
    if (current_->included_open == 0 || !inside_creation(*current_, region)) [[likely]] return false;
    const Frame& creation = current_->frames.back();
    if (creation.included_final) --current_->final_open;
    // The enclosing level's unsettled tasks: those it had at this creation,
    // this task not among them, and whatever this task left unsettled.
    current_->included_settled -= creation.enclosing_unsettled;
    if (--current_->included_open == 0) current_->included_fold = nullptr;
    return true;
}

[[gnu::always_inline]] inline Node* ThreadState::visit_without_frame(TaskContext& context, NodeKind kind,
                                                                     const RegionRecord& region) {
    Node* caller = context.current_node();
    Node* node = child_of(folds_under(context, caller) ? fold_point(context) : caller, kind, &region, nullptr);
    Node*& last_exited = context.last_exited();
    count_predecessor(node, last_exited != nullptr ? last_exited : caller, 1);
    last_exited = node;
    return node;
}

[[gnu::always_inline]] inline Node* ThreadState::count_untimed_visit(TaskContext& context, NodeKind kind,
                                                                    const RegionRecord& region) {
    Node* node = visit_without_frame(context, kind, region);
    // A visit of no measured time: the node's shortest visit is 0.
    node->metrics.visits.add(1);
    node->metrics.shortest.set(0);
    return node;
}

// Inlined into both rememberings (a deferred creation's is on its hot path).
[[gnu::always_inline]] inline void ThreadState::publish_inline_mode(unsigned mode) {
    // Valid from here unless measurement stops or is switched off meanwhile
    // (Measurement::stop_inline_counting clears the mode after its flag).
    shared(untimed_cache_.mode).store(mode, std::memory_order_relaxed);
    measurement_.order_event_start();
    if (!measurement_.counts_untimed_inline()) stop_inline_counting();
}

// The instrumented code's counting (POMP2_Task_create_begin_fast,
// POMP2_Taskwait_begin_fast) repeats count_untimed_visit for a construct
// of the cache while the cache's call path is the thread's: the slot counts
// the visits, and those after each other slot's construct (its control
// flow from that node), and add_slot_counts adds them to the nodes.  The
// node's shortest visit is 0 already.
void ThreadState::remember_untimed_visit(TaskContext& context, Node* node, UntimedSlot slot, bool creation) {
    if (!measurement_.counts_untimed_inline()) return;
    POMP2_Untimed_cache& cache = untimed_cache_;
    auto* const last_exited = reinterpret_cast<void**>(&context.last_exited());
    Node* const parent = node->parent;
    // Another call path: nothing cached holds there.  (The event that
    // called here added the slots' counts first.)
    if (cache.last_exited != last_exited || untimed_parent_ != parent) {
        for (POMP2_Untimed_slot& cached : cache.slots) cached = {};
        for (auto& edges : untimed_edges_) std::ranges::fill(edges, nullptr);
        cache.last_exited = last_exited;
        untimed_parent_ = parent;
    }
    const unsigned index = slot.index % POMP2_UNTIMED_SLOTS;
    POMP2_Untimed_slot& counted = cache.slots[index];
    if (counted.handle != slot.handle || counted.node != node) {
        // A new construct in the slot: no control-flow count of the one it
        // replaces holds.
        std::ranges::fill(untimed_edges_[index], nullptr);
        for (auto& edges : untimed_edges_) edges[index] = nullptr;
        counted.handle = slot.handle;
        counted.node = node;
        untimed_creation_[index] = creation;
    }
    cache.last = index;
    cache.marker = context.handle | kUntimedBit | kUntimedDoneBit;
    // What the next untimed visits may be: creations once this context ran
    // untimed tasks, and a taskwait while one has nothing to wait for (the
    // visit just counted changed neither, nor will the inline ones).
    unsigned mode = nothing_to_wait_for(context) ? POMP2_UNTIMED_TASKWAIT : 0;
    if (context.ran_untimed) {
        mode |= POMP2_UNTIMED_UNDEFERRED;
        if (in_final_task(context)) mode |= POMP2_UNTIMED_ANY_TASK;
    }
    publish_inline_mode(mode);
}

// Often a few visits per call (a taskwait that is an event after two
// inline creations): unrolled, the rare lookup of a new edge out of line.
void ThreadState::add_slot_counts() {
    POMP2_Untimed_cache& cache = untimed_cache_;
    bool counted = false;
#pragma GCC unroll 4
    for (unsigned index = 0; index < POMP2_UNTIMED_SLOTS; ++index) {
        POMP2_Untimed_slot& slot = cache.slots[index];
        // Usually nothing, when an event follows the call that filled the
        // cache: one test for the slot, no stores.
        static_assert(POMP2_UNTIMED_SLOTS == 4);
        if ((slot.after[0] | slot.after[1] | slot.after[2] | slot.after[3]) == 0) continue;
        std::uint64_t visits = 0;
#pragma GCC unroll 4
        for (unsigned before = 0; before < POMP2_UNTIMED_SLOTS; ++before) {
            const std::uint64_t after = std::exchange(slot.after[before], 0);
            if (after == 0) continue;
            visits += after;
            if (PredecessorEntry* edge = untimed_edges_[index][before]) [[likely]] {
                edge->count.add(after);
            } else {
                add_first_slot_edge(index, before, after);
            }
        }
        counted = true;
        Node* const node = static_cast<Node*>(slot.node);
        node->metrics.visits.add(visits);
        if (untimed_creation_[index]) node->metrics.body_count.add(visits);
    }
    // The node left last: the one counted last.
    if (counted) *reinterpret_cast<Node**>(cache.last_exited) = static_cast<Node*>(cache.slots[cache.last].node);
}

void ThreadState::add_first_slot_edge(unsigned index, unsigned before, std::uint64_t count) {
    const POMP2_Untimed_slot* slots = untimed_cache_.slots;
    untimed_edges_[index][before] =
        count_predecessor(static_cast<Node*>(slots[index].node), static_cast<const Node*>(slots[before].node), count);
}

// The pop that POMP2_Creation_closed repeats: the figures record_visit
// writes, in the order it reads them.
static_assert(offsetof(NodeMetrics, inclusive) == offsetof(NodeMetrics, visits) + sizeof(std::uint64_t) &&
              offsetof(NodeMetrics, shortest) == offsetof(NodeMetrics, visits) + 2 * sizeof(std::uint64_t) &&
              offsetof(NodeMetrics, longest) == offsetof(NodeMetrics, visits) + 3 * sizeof(std::uint64_t));

[[gnu::always_inline]] inline void ThreadState::remember_open_creation(TaskContext& context, const Frame& frame,
                                                                       const POMP2_Region_handle* handle) {
    if (!closes_creations_inline_ || frame.folded || &frame == &overflow_frame_ ||
        !measurement_.counts_untimed_inline()) [[unlikely]]
        return;
    POMP2_Open_creation& creation = untimed_cache_.creation;
    creation.handle = handle;
    creation.old_task = context.handle;
    creation.node = frame.node;
    creation.figures = frame.node->metrics.visits.address_for_instrumented_code();
    // Where pop() leaves the node: the enclosing frame, or beside the root.
    Node** enclosing = context.frames.size() > 1 ? &context.frames[context.frames.size() - 2].last_exited_child
                                                 : &context.root_last_exited;
    creation.last_exited = reinterpret_cast<void**>(enclosing);
    creation.frames_end = reinterpret_cast<void**>(context.frames.end_address());
    creation.frame = const_cast<Frame*>(&frame);
    creation.entered = frame.entered;
    publish_inline_mode(POMP2_CREATION_OPEN);
}

void ThreadState::create_task(const RegionRecord& region, TaskClauseValues clauses, TaskHandle* new_task,
                              TaskHandle* old_task, const POMP2_Region_handle* untimed_key) {
    const bool if_clause = clauses.if_clause;
    const bool final_clause = clauses.final_clause;
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] {
        if (new_task != nullptr) *new_task = new_task_handle(final_clause);
        if (old_task != nullptr) *old_task = 0;
        return;
    }
    TaskContext& context = *current_;
    if (if_clause && !in_final_task(context)) {
        if (new_task != nullptr) *new_task = new_task_handle(final_clause);
        if (old_task != nullptr) *old_task = context.handle;
        // Inside a task of this construct run at once in a creation that
        // folds: no clock for a visit whose time its enclosing one measures.
        if (enters_own_folded_node(context, NodeKind::Region, region) && counters_ == nullptr &&
            context.frames.size() < kMaxOpenFrames) {
            push_untimed(context);
            return;
        }
        const Frame& frame = push(context, NodeKind::Region, region, measurement_.now());
        if (untimed_key != nullptr) remember_open_creation(context, frame, untimed_key);
        return;
    }
    Node* const node = count_untimed_visit(context, NodeKind::Region, region);
    node->metrics.body_count.add(1);
    context.ran_untimed = true;
    if (new_task != nullptr) *new_task = kUntimedTask;
    TaskHandle marker = context.handle | kUntimedBit;
    if (final_clause && !in_final_task(context)) {
        ++context.final_open;
        marker |= kUntimedFinalBit;
    } else {
        marker |= kUntimedDoneBit;
    }
    if (old_task != nullptr) *old_task = marker;
    if (untimed_key != nullptr) remember_untimed_visit(context, node, {untimed_key, clauses.untimed_slot}, true);
}

void ThreadState::resume_untimed(TaskHandle marker) {
    const TaskHandle task = marker & ~(kUntimedDoneBit | kUntimedBit | kUntimedFinalBit);
    // Nothing ran in between, or what did switched back: as resume() finds
    // it, without a clock read.
    if (current_->handle != task) [[unlikely]] resume(task, measurement_.now());
}

void ThreadState::end_untimed_task(TaskHandle marker) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    resume_untimed(marker);
    if ((marker & kUntimedFinalBit) != 0) {
        assert(current_->final_open > 0);
        --current_->final_open;
    }
}

[[gnu::always_inline]] inline bool ThreadState::nothing_to_wait_for(const TaskContext& context) const {
    return in_final_task(context) || (context.ran_untimed && context.task_mark == make_task_handle(task_counter_)) ||
           (context.included_open > 0 && context.included_settled == task_counter_);
}

TaskHandle ThreadState::begin_taskwait(const RegionRecord& region, UntimedSlot slot) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return 0;
    TaskContext& context = *current_;
    if (!nothing_to_wait_for(context)) {
        push(context, NodeKind::Region, region, measurement_.now());
        return context.handle;
    }
    Node* const node = count_untimed_visit(context, NodeKind::Region, region);
    // The cache pays where untimed tasks ran: their creations and taskwaits
    // follow each other with no event between.  Elsewhere (inside a task run
    // at once whose children ran at once too: BOTS UTS with libgomp) the
    // task's end, an event, comes next, and filling the cache would cost
    // more than the visit.
    if (slot.handle != nullptr && context.ran_untimed) remember_untimed_visit(context, node, slot, false);
    return context.handle | kUntimedBit | kUntimedDoneBit;
}

void ThreadState::end_taskwait_untimed(TaskHandle marker) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    resume_untimed(marker);
}

// One event scope per event: the included-task check reads the task context,
// which the finaliser may be resetting after program end.
void ThreadState::construct_task_begin(const RegionRecord& region, TaskHandle task) {
    const EventScope event(*this);
    if (event.refused() || begin_included_task(region, task)) return;
    start_task(region, task, measurement_.now());
}

void ThreadState::construct_task_end(const RegionRecord& region) {
    const EventScope event(*this);
    if (event.refused() || end_included_task(region)) return;
    finish_task(region, measurement_.now());
}

void ThreadState::task_begin(const RegionRecord& region, TaskHandle task, Ticks now) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    start_task(region, task, now);
}

void ThreadState::task_end(const RegionRecord& region, Ticks now) {
    const EventScope event(*this);
    if (event.refused()) [[unlikely]] return;
    finish_task(region, now);
}

[[gnu::always_inline]] inline void ThreadState::start_task(const RegionRecord& region, TaskHandle task, Ticks now) {
    TaskContext* instance = contexts_.allocate();
    // A context is new, or the instance it last ran ended (retire): its
    // frames closed, their counter marks with them, and it was running, not
    // suspended.  What that instance may have changed is reset.
    assert(instance->frames.empty() && instance->counter_marks.empty() && !instance->suspended);
    instance->handle = task;
    instance->root_last_exited = nullptr;
    instance->suspended_total = 0;
    instance->included_open = 0;
    instance->included_fold = nullptr;
    instance->ran_untimed = false;
    instance->task_mark = make_task_handle(task_counter_);
    instance->final_open = 0;
    // A recycled context that last ran an instance of this construct has
    // its task root (nodes are never freed).
    if (instance->region != &region) instance->root = child_of(root_, NodeKind::TaskRoot, &region, nullptr);
    instance->region = &region;
    Node& task_root = *instance->root;
    ++task_root.active_instances;
    task_root.max_active_instances.raise_to(task_root.active_instances);
    active_.push_back(instance);
    switch_to(*instance, now);
    instance->started = now;
    if (task_root_frames() != 0) [[unlikely]] {
        instance->frames.emplace_back(instance->root, now, Ticks{0});
        if (counters_ != nullptr) {
            instance->counters_suspended_total = {};
            read_counters(instance->counter_marks.emplace_back().at_enter);
        }
    }
}

[[gnu::always_inline]] inline void ThreadState::finish_task(const RegionRecord& region, Ticks now) {
    TaskContext* instance = current_;
    if (instance == implicit_) [[unlikely]] {
        return warn_unmatched(region, "task end outside a task; ignored");
    }
    const std::size_t root_frames = task_root_frames();
    if (instance->frames.size() > root_frames) [[unlikely]] {
        close_frames(*instance, root_frames, now,
                     fmt::format("left open at the end of task {}", describe(instance->region)));
    }
    end_task_root(*instance, now);
    // A finished instance is not suspended: only its stub is left.
    leave_stub(now);
    current_ = implicit_;
    retire(instance);
}

void ThreadState::close_frames(TaskContext& context, std::size_t keep, Ticks now, std::string_view why) {
    while (context.frames.size() > keep) {
        const Node* left_open = context.frames.back().node;
        if (left_open->kind != NodeKind::TaskRoot && left_open->kind != NodeKind::TaskStub) {
            warn(left_open->region, fmt::format("{}: {}", describe(left_open->region), why));
        }
        pop_left_open(context, now);
    }
}

[[gnu::always_inline]] inline void ThreadState::end_task_root(TaskContext& instance, Ticks now) {
    if (task_root_frames() != 0) [[unlikely]] {
        if (!instance.frames.empty()) pop(instance, now);
        return;
    }
    const Ticks span = elapsed(instance.started, now);
    instance.root->metrics.record_visit(span > instance.suspended_total ? span - instance.suspended_total : 0);
}

[[gnu::always_inline]] inline void ThreadState::retire(TaskContext* instance) {
    --instance->root->active_instances;
    // Usually the newest instance ends (tied tasks nest on a thread).
    if (active_.back() == instance) [[likely]] {
        active_.pop_back();
    } else {
        active_.erase(std::find(active_.begin(), active_.end(), instance));
    }
    contexts_.release(instance);
}

void ThreadState::close_open_regions(Ticks now) {
    constexpr std::string_view kWhy = "still open at program end; closed then";
    // What the instrumented code counted since the thread's last event (the
    // thread counts no more: stop() cleared its mode and waited for it).
    add_slot_counts();
    // Task instances begun and not ended (running or suspended) end now:
    // their time up to now counts, suspension excluded as usual.
    while (!active_.empty()) {
        TaskContext* instance = active_.back();
        if (Node* stub = std::exchange(instance->stub, nullptr)) stub->metrics.record_visit(elapsed(instance->stub_entered, now));
        if (instance->suspended) {
            instance->suspended_total += elapsed(instance->suspended_since, now);
            instance->suspended = false;
        }
        close_frames(*instance, task_root_frames(), now, kWhy);
        end_task_root(*instance, now);
        retire(instance);
    }
    current_ = implicit_ = &implicit_main_;
    close_frames(implicit_main_, 0, now, kWhy);
    held_locks_.clear();
}

void ThreadState::warn_unmatched(const RegionRecord& region, std::string_view what) {
    warn(&region, fmt::format("{}: {}", describe(&region), what));
}

void ThreadState::warn(const RegionRecord* region, std::string text) {
    std::lock_guard lock(warnings_mutex_);
    // Indexed: a program may give thousands of distinct warnings.
    if (auto it = warning_index_.find(text); it != warning_index_.end()) {
        ++warnings_[it->second].occurrences;
        return;
    }
    warning_index_.emplace(text, warnings_.size());
    model::Warning warning;
    warning.text = std::move(text);
    if (region != nullptr) warning.region = region->info.id;
    warnings_.push_back(std::move(warning));
}

std::vector<model::Warning> ThreadState::warnings() const {
    std::vector<model::Warning> warnings;
    {
        std::lock_guard lock(warnings_mutex_);
        warnings = warnings_;
    }
    if (const std::uint64_t dropped = frames_dropped_.load(std::memory_order_relaxed); dropped > 0) {
        warnings.push_back({fmt::format("region entries more than {} regions deep on one thread were not recorded "
                                        "(the bound of a thread's open regions; their time counts in the enclosing "
                                        "regions)",
                                        kMaxOpenFrames),
                            std::nullopt, dropped});
    }
    return warnings;
}

}  // namespace ompp::core
