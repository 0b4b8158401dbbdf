// node.hpp - call-tree nodes of one thread, and the per-thread pools they
// come from.
//
// Concurrency contract (a snapshot thread reads while the owner measures):
//  - identity fields (kind, region, parent, fork_origin) are written before
//    the node is published and never change afterwards;
//  - child and predecessor lists are append-only and published with release
//    stores; readers follow them with acquire loads;
//  - metrics are std::atomic with a single writer (the owning thread), updated
//    by relaxed load+store - no read-modify-write, no locks;
//  - fields marked "owner only" are never read by other threads.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/clock.hpp"
#include "model/profile.hpp"

namespace ompp::core {

struct RegionRecord;

// A single-writer metric that other threads may read at any time.
class RelaxedCounter {
public:
    explicit RelaxedCounter(std::uint64_t initial = 0) : value_(initial) {}
    std::uint64_t get() const { return value_.load(std::memory_order_relaxed); }
    void set(std::uint64_t v) { value_.store(v, std::memory_order_relaxed); }
    void add(std::uint64_t delta) { set(get() + delta); }
    void lower_to(std::uint64_t v) {
        if (v < get()) set(v);
    }
    void raise_to(std::uint64_t v) {
        if (v > get()) set(v);
    }
    // For the owning thread's instrumented code, which closes a deferred
    // task's creation itself (POMP2_Open_creation): the same relaxed load and store, made
    // with the compilers' __atomic builtins on the plain 64-bit value.
    std::uint64_t* address_for_instrumented_code() { return reinterpret_cast<std::uint64_t*>(&value_); }

private:
    std::atomic<std::uint64_t> value_;
    static_assert(sizeof(std::atomic<std::uint64_t>) == sizeof(std::uint64_t) &&
                  std::atomic<std::uint64_t>::is_always_lock_free);
};

inline constexpr std::size_t kCacheLine = 64;
inline constexpr std::uint64_t kNoVisitYet = std::numeric_limits<std::uint64_t>::max();

// Times are ticks of the measurement clock.
struct NodeMetrics {
    RelaxedCounter visits;
    RelaxedCounter inclusive;
    RelaxedCounter shortest{kNoVisitYet};
    RelaxedCounter longest;
    RelaxedCounter body;        // bodyT / sectT / singleT
    RelaxedCounter body_count;  // sectC / singleC
    RelaxedCounter startup;     // startupT
    RelaxedCounter enter;       // enterT
    RelaxedCounter exit;        // exitT
    RelaxedCounter shutdown;    // shutdwnT
    RelaxedCounter folded_exclusive;  // folded nodes only: time not in other folded nodes
    // Parallel-region bodies whose CPU use was sampled (ThreadState::parallel_begin).
    RelaxedCounter cpu_samples;
    RelaxedCounter cpu_sampled;               // their wall time
    RelaxedCounter cpu_ns;                    // the thread's CPU time in them, ns
    RelaxedCounter run_delay_ns;              // its time runnable but not running in them, ns
    RelaxedCounter bytes;                     // MPI regions: bytes moved (ThreadState::count_bytes)
    std::array<RelaxedCounter, model::kMaxCounters> counters;  // inclusive counter deltas

    void record_visit(Ticks duration) {
        visits.add(1);
        inclusive.add(duration);
        shortest.lower_to(duration);
        longest.raise_to(duration);
    }
};

struct Node;

// How often the owner entered a node right after `predecessor` (its parent
// or the sibling it exited just before): ompP's control-flow record.
struct PredecessorEntry {
    const Node* predecessor = nullptr;
    RelaxedCounter count;
    std::atomic<PredecessorEntry*> next{nullptr};
    PredecessorEntry* next_free = nullptr;  // owner only
};

// The workers of one team instance report where and when their part ended,
// so that the master can complete their visit at the join: a worker sees no
// join event.  One record per fork node and open instance (a folded fork
// node forked again inside its own open instance gets the next one,
// `nested`), reused by every instance of the team: each worker writes its
// member, the master drains them.
//
// The region's end barrier is the OpenMP runtime's own join barrier (ompp
// adds none): each thread reports its arrival (its Parallel_end), and the
// master, after the join, computes every thread's wait as the team's latest
// arrival minus its own, less the time it ran tasks after arriving (tasks
// pending at the region's end run inside the join barrier).
//
// Every figure of a worker's visit is handed over in its member, one cache
// line, and the master writes them all into the worker's node at the join:
// the worker writes none of the node's visit figures (NodeMetrics' first
// line, see Node), so at the join the master reads one line per worker that
// the worker wrote, and writes lines only it writes, instead of taking the
// node's lines back and forth with the worker every instance.  Its member
// is the one of its thread number (known: no read-modify-write on a shared
// counter), and its startup (fork to begin) is the master's to compute from
// `begun`, so that the fork's time need not travel to the worker.
//
// `node` passes the member between its two threads, in both directions,
// by the C++ memory model alone (the OpenMP runtime's fork and join barrier
// order them too, but through synchronisation ompp cannot name, and that
// ThreadSanitizer does not see in an uninstrumented runtime):
//  - null: the worker's.  It writes the member only after it read null with
//    acquire, so the master's reads of the previous report happen before;
//    it publishes the report by storing its node last, with release;
//  - not null: the master's.  It reads the report after loading the node
//    with acquire, and hands the member back by storing null with release
//    after its last read (at the join, or at the next fork for a report no
//    join took over).
// A worker that finds its member still the master's does not wait: it
// records its visit itself, as a worker without a member does (the runtime
// never lets that happen: a team's next instance begins after its join).
// Per instance and worker the member's line goes to the master and back; a
// numbered worker, not folded, reads no other line written for the instance.
struct alignas(kCacheLine) TeamMember {
    std::atomic<Node*> node{nullptr};  // who owns the member (above); the worker's node when the master's
    Node* barrier = nullptr;           // the worker's join-barrier node; null: its barrier was measured explicitly
    Ticks begun = 0;                   // when `visit` began: the worker's begin, or the fork if it counted its startup
    Ticks end = 0;                     // arrival at the region's end
    Ticks visit = 0;                   // the region's time on the worker from `begun` up to its arrival
    Ticks body = 0;                    // its body time up to its arrival
    bool outermost = true;             // false: a folded recursive visit (its time is the enclosing visit's)
    std::atomic<Ticks> tasks{0};       // time the worker ran tasks after arriving (written after publication)
};
static_assert(sizeof(TeamMember) == kCacheLine);
struct TeamRecord {
    // The line the workers read at their begin: written by the master only
    // when the record grows, and claimed in only by workers that do not
    // know their thread number (no OpenMP runtime).
    std::unique_ptr<TeamMember[]> members;
    std::uint32_t capacity = 0;  // both written before the fork slot is published (ForkTable::publish's team_grown)
    std::atomic<std::uint32_t> claimed{0};
    // The master's own (master only, but a worker that counts its startup
    // itself reads `forked`), in a line of its own: the master writes it
    // while workers begin and arrive.
    alignas(kCacheLine) Node* master_barrier = nullptr;
    Ticks master_tasks_at_arrival = 0;
    // The instance's fork.  Atomic: the fork slot, which would order it, is
    // not published again for each instance; which instance a worker's
    // begin belongs to is the OpenMP runtime's to order (ForkTable).
    std::atomic<Ticks> forked{0};
    TeamRecord* nested = nullptr;  // owned by the forking thread's state, as Node::team

    // The members an instance's workers may have written: those claimed, and
    // those below the largest team size noted (numbered workers).
    std::uint32_t members_in_use(std::uint32_t max_team_size) const {
        return std::min(capacity, std::max(claimed.load(std::memory_order_acquire), max_team_size - 1));
    }
};
// Cache-line aligned, so that the visit figures (NodeMetrics' first fields:
// visits to startup) share no line with the identity, which other events
// of the owner read, nor with the owner-only fields: the figures of a
// worker's part of a parallel region are written by the master (TeamMember).
struct alignas(kCacheLine) Node {
    // Identity: fixed before publication.
    model::NodeKind kind = model::NodeKind::Root;
    const RegionRecord* region = nullptr;
    Node* parent = nullptr;
    // For a worker thread's parallel-region node: the fork node in the
    // forking thread's tree it belongs under.
    const Node* fork_origin = nullptr;
    // Distance from the thread root.  Nodes deeper than the measurement's
    // max_depth are folded (see ThreadState::push).
    std::uint32_t depth = 0;

    std::atomic<Node*> first_child{nullptr};
    std::atomic<Node*> next_sibling{nullptr};
    std::atomic<PredecessorEntry*> first_predecessor{nullptr};

    NodeMetrics metrics;

    // Task roots: the largest number of instances of this construct that
    // were active at once on the owning thread (the seed's Table II).
    // Folded nodes: the deepest recursion of the node (visits open at once).
    RelaxedCounter max_active_instances;
    // Fork nodes: the team's end reports (owned by the forking thread).
    TeamRecord* team = nullptr;

    // Owner only.
    Node* last_child = nullptr;
    // Hit cache of recent lookups (ThreadState::child_of), checked in turn
    // and replaced in turn: up to four constructs entered in turn (two task
    // creations and a taskwait in each task of a recursion, a creation and
    // the task's stub at a barrier) hit without a search.  Two entries do
    // not hold a cycle of three.  Each child's key (ThreadState::child_key:
    // its region, kind and whether it has a fork origin, in one word; 0: no
    // child) is kept beside it, so that a lookup compares words of this
    // line instead of reading each cached child's identity.
    std::array<std::uintptr_t, 4> recent_keys{};
    std::array<Node*, 4> recent_children{};
    std::uint8_t next_replaced_child = 0;
    PredecessorEntry* last_predecessor = nullptr;
    PredecessorEntry* earlier_predecessor = nullptr;
    std::uint32_t active_instances = 0;
    bool body_begun = false;  // parallel-region nodes: a body began (ThreadState::begin_body_sample)
    Node* next_free = nullptr;

    // Reader side.
    Node* child_list() const { return first_child.load(std::memory_order_acquire); }
    Node* sibling() const { return next_sibling.load(std::memory_order_acquire); }
    PredecessorEntry* predecessor_list() const { return first_predecessor.load(std::memory_order_acquire); }
};

// The layout Node's alignment is for: the visit figures the master writes
// for a worker at the join (visits to startup) in one line, apart from the
// identity, which the worker's events read.
static_assert(offsetof(Node, metrics) % kCacheLine + offsetof(NodeMetrics, startup) < kCacheLine);
static_assert(offsetof(Node, metrics) / kCacheLine > offsetof(Node, depth) / kCacheLine);

// Fixed-size blocks, bump allocation, and a free list for recycled objects:
// after warm-up nothing is allocated.  Owned and used by one thread.
template <typename T, std::size_t kBlockSize = 256>
class BlockPool {
public:
    // A recycled object inline (task contexts, every task); a new one out of line.
    T* allocate() {
        if (free_ != nullptr) [[likely]] {
            T* object = free_;
            free_ = object->next_free;
            object->next_free = nullptr;
            ++live_;
            return object;
        }
        return allocate_new();
    }
    void release(T* object) {
        object->next_free = free_;
        free_ = object;
        --live_;
    }
    std::size_t live() const { return live_; }
    std::size_t bytes_reserved() const { return blocks_.size() * kBlockSize * sizeof(T); }

private:
    [[gnu::noinline]] T* allocate_new() {
        if (blocks_.empty() || used_ == kBlockSize) {
            blocks_.push_back(std::make_unique<T[]>(kBlockSize));
            used_ = 0;
        }
        ++live_;
        return &blocks_.back()[used_++];
    }

    std::vector<std::unique_ptr<T[]>> blocks_;
    std::size_t used_ = 0;
    T* free_ = nullptr;
    std::size_t live_ = 0;
};

}  // namespace ompp::core
