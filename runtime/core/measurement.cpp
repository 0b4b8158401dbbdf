#include "core/measurement.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

// The calling thread's untimed cache (<pomp2/pomp2_ompp.h>), which the
// instrumented code reads: set when a thread state is bound to the thread;
// until then, and once it is released, one that knows no construct (never
// written: the instrumented code writes a cache only once a slot or the
// open creation is its construct's).
namespace {
POMP2_Untimed_cache g_no_untimed_cache{};
}  // namespace
extern "C" {
__attribute__((visibility("default"))) __thread POMP2_Untimed_cache* POMP2_Untimed_cache_v2_of_thread
    __attribute__((tls_model("initial-exec"))) = &g_no_untimed_cache;
}

namespace ompp::core {
namespace {

std::atomic<std::uint64_t> g_next_generation{1};

// How long stop() waits for a thread's event in flight to end.
constexpr std::chrono::milliseconds kEventDrainLimit{200};

// Expedited membarrier lets stop() fence every running thread at once, so
// that events need only a compiler barrier; false where the kernel (or a
// sandbox) lacks it.
bool register_membarrier() {
    const long commands = ::syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    return commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
           ::syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

std::uint64_t mix(std::uint64_t key) {
    // splitmix64 finaliser: spreads ancestor tuples over the table.
    key += 0x9e3779b97f4a7c15ULL;
    key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ULL;
    key = (key ^ (key >> 27)) * 0x94d049bb133111ebULL;
    return key ^ (key >> 31);
}

}  // namespace

__thread ThreadBinding t_binding __attribute__((tls_model("initial-exec"))) = {0, nullptr};

namespace {

// Destroyed as its OS thread ends: parks the thread's state under its team
// position if the state can be carried on (see ThreadState::recyclable).
struct ThreadExitHook {
    std::weak_ptr<ParkedThreads> parked;
    ThreadState* state = nullptr;
    std::uint64_t team_position = 0;
    void watch(const std::shared_ptr<ParkedThreads>& threads, ThreadState* thread, std::uint64_t position) {
        parked = threads;
        state = thread;
        team_position = position;
    }
    ~ThreadExitHook() {
        const auto threads = parked.lock();
        if (threads == nullptr || state == nullptr) return;
        // Under the lock: the finalising thread closes open regions under it.
        std::lock_guard lock(threads->mutex);
        if (!state->recyclable()) return;
        state->release_os_thread();
        t_binding = ThreadBinding{0, nullptr};  // a late event here gets a state of its own
        POMP2_Untimed_cache_v2_of_thread = &g_no_untimed_cache;
        threads->by_position[team_position].push_back(state);
    }
};
thread_local ThreadExitHook t_exit_hook;

}  // namespace

const ForkSlot* ForkTable::slot_of(std::uint64_t key) const {
    key = key == 0 ? 1 : key;  // 0 marks a free slot
    const std::size_t start = mix(key) % kSlots;
    for (std::size_t probe = 0; probe < kSlots; ++probe) {
        const ForkSlot& slot = slots_[(start + probe) % kSlots];
        const std::uint64_t found = slot.key.load(std::memory_order_acquire);
        if (found == key) return &slot;
        if (found == 0) return nullptr;
    }
    return &overflow_;
}

ForkSlot& ForkTable::claim(std::uint64_t key) {
    key = key == 0 ? 1 : key;
    const std::size_t start = mix(key) % kSlots;
    for (std::size_t probe = 0; probe < kSlots; ++probe) {
        ForkSlot& slot = slots_[(start + probe) % kSlots];
        std::uint64_t found = slot.key.load(std::memory_order_acquire);
        if (found == 0 && slot.key.compare_exchange_strong(found, key, std::memory_order_acq_rel)) return slot;
        if (found == key) return slot;
    }
    return overflow_;
}

Measurement::Measurement(Clock clock, std::uint32_t max_depth)
    : clock_(clock),
      start_(clock_.now()),
      max_depth_(std::clamp<std::uint32_t>(max_depth, 1, kMaxOpenFrames)),
      generation_(g_next_generation.fetch_add(1)),
      asymmetric_fence_(register_membarrier()) {}

Measurement::~Measurement() = default;

void Measurement::set_counter_reader_factory(CounterReaderFactory factory) {
    std::lock_guard lock(threads_mutex_);
    counter_factory_ = std::move(factory);
}

ThreadState& Measurement::attach_this_thread(std::uint64_t team_position) {
    ThreadState* state = team_position != kNoTeamPosition ? take_parked(team_position) : nullptr;
    if (state == nullptr) state = &add_thread();
    t_binding = ThreadBinding{generation_, state};
    // The instrumented code's untimed counting on this thread: nothing until
    // the state's next untimed visit (it may have been another thread's).
    state->stop_inline_counting();
    POMP2_Untimed_cache_v2_of_thread = state->untimed_cache();
    // Parked again when this thread ends.
    if (team_position != kNoTeamPosition) t_exit_hook.watch(parked_, state, team_position);
    if (thread_attach_hook_ != nullptr) thread_attach_hook_();
    return *state;
}

ThreadState* Measurement::take_parked(std::uint64_t team_position) {
    std::lock_guard lock(parked_->mutex);
    const auto it = parked_->by_position.find(team_position);
    if (it == parked_->by_position.end() || it->second.empty()) return nullptr;
    ThreadState* state = it->second.back();
    it->second.pop_back();
    return state;
}

ThreadState& Measurement::add_thread() {
    std::unique_ptr<CounterReader> counters;
    std::unique_lock lock(threads_mutex_);
    if (counter_factory_) {
        CounterReaderFactory factory = counter_factory_;
        lock.unlock();
        counters = factory();  // may be slow (PAPI): not under the lock
        lock.lock();
    }
    const auto id = static_cast<std::uint32_t>(threads_.size());
    return *threads_.emplace_back(std::make_unique<ThreadState>(*this, id, std::move(counters)));
}

void Measurement::note_larger_team(std::uint32_t size) {
    std::uint32_t seen = max_team_size_.load(std::memory_order_relaxed);
    while (size > seen && !max_team_size_.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
    }
}

void Measurement::order_against_events() const {
    if (!asymmetric_fence_ || ::syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        std::atomic_thread_fence(std::memory_order_seq_cst);
}

std::unique_lock<std::mutex> Measurement::clear_inline_counting() {
    inline_counting_.store(false, std::memory_order_relaxed);
    // Pairs with the check after a cache is filled: the thread either sees
    // the flag or filled it before the clearing below.
    order_against_events();
    std::unique_lock lock(threads_mutex_);
    for (const auto& thread : threads_) thread->stop_inline_counting();
    return lock;
}

void Measurement::stop_inline_counting() { clear_inline_counting(); }

void Measurement::stop() {
    stopped_.store(true, std::memory_order_relaxed);
    // The fence inside also pairs with order_event_start(): every thread
    // either shows its event in flight now or sees stopped() in that event.
    const auto lock = clear_inline_counting();
    // The instrumented code counting inline marks itself busy, then reads
    // its mode: either it sees the mode cleared, or the wait below sees it
    // busy.
    order_against_events();
    // An event takes well under a microsecond; a thread that stays inside
    // one was interrupted there (the signal being handled).
    const auto deadline = std::chrono::steady_clock::now() + kEventDrainLimit;
    interrupted_threads_.clear();
    for (const auto& thread : threads_) {
        while (!thread->quiescent() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
        if (!thread->quiescent()) interrupted_threads_.push_back(thread->id());
    }
}

void Measurement::close_open_regions(Ticks now) {
    std::lock_guard lock(threads_mutex_);
    std::lock_guard parking(parked_->mutex);  // no thread parks its state meanwhile
    for (const auto& thread : threads_) {
        if (std::find(interrupted_threads_.begin(), interrupted_threads_.end(), thread->id()) ==
            interrupted_threads_.end())
            thread->close_open_regions(now);
    }
}

void Measurement::for_each_thread(const std::function<void(const ThreadState&)>& visit) const {
    std::vector<const ThreadState*> threads;
    {
        std::lock_guard lock(threads_mutex_);
        for (const auto& thread : threads_) threads.push_back(thread.get());
    }
    for (const ThreadState* thread : threads) visit(*thread);
}

}  // namespace ompp::core
