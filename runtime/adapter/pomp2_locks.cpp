// OpenMP lock wrappers.  Locks are passed to the application's OpenMP
// runtime untouched (omp_lock_t is opaque here: libgomp and libomp lay it out
// differently), so libompp is compiled without OpenMP and declares the
// pointers as void*; the C ABI is the same.
//
// The runtime's functions are looked up with dlsym, which returns a symbol's
// default version: the one the plain program binds at link time.  A plain
// undefined reference from libompp (which links no OpenMP runtime) would bind
// the oldest version instead, and libgomp's oldest nest-lock functions are
// OpenMP 2.5's, with another lock layout and other nesting semantics.
#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <unordered_map>
#include <utility>

#include <pomp2/pomp2_ompp.h>

#include "adapter/lifecycle.hpp"
#include "adapter/tracing.hpp"
#include "core/region_registry.hpp"
#include "deadlock/watch.hpp"

#define OMPP_API __attribute__((visibility("default")))
// The application's call of a lock wrapper (for deadlock reports).
#define OMPP_CALL_SITE __builtin_return_address(0)

namespace {

using LockFn = void (*)(void*);
using TestLockFn = int (*)(void*);
using HintLockFn = void (*)(void*, int);

// The OpenMP runtime's function `name`; a program without one cannot have
// called an omp_*lock function, so its absence is a build error to explain.
// Each wrapper keeps the result in a local static: one lookup per function.
template <typename Function>
Function omp_function(const char* name) {
    void* function = dlsym(RTLD_DEFAULT, name);
    if (function == nullptr) {
        std::fprintf(stderr,
                     "ompp: %s: no OpenMP runtime is loaded in this program; compile and link it "
                     "with -fopenmp\n",
                     name);
        std::abort();
    }
    return reinterpret_cast<Function>(function);
}

using ompp::core::Measurement;
using ompp::core::RegionRecord;
using ompp::model::RegionKind;
using ompp::trace::Event;

// The site of the next lock this thread initialises (POMP2_Lock_init_site).
thread_local const RegionRecord* t_init_site = nullptr;
// Bumped by every named init: a lock address may be reused for a lock of
// another site, so the threads' caches start afresh.
std::atomic<std::uint64_t> g_lock_sites_epoch{0};

void name_initialised_lock(const void* lock) {
    const RegionRecord* site = std::exchange(t_init_site, nullptr);
    if (site == nullptr) return;
    ompp::core::RegionRegistry::instance().bind_lock(lock, *site);
    g_lock_sites_epoch.fetch_add(1, std::memory_order_release);
}

// One LOCK region per init site (or, for a lock initialised without one,
// per lock object).  Two per-thread caches keep the registry's mutex off the
// lock path after a thread's first use of a lock: a few recently used locks
// in static TLS, read without a __tls_get_addr call (initial-exec, plain
// data), and behind it a map of every lock the thread used.
const RegionRecord& lock_region_of_any_lock(const void* lock, std::uint64_t epoch) {
    thread_local std::unordered_map<const void*, const RegionRecord*> cache;
    thread_local std::uint64_t cache_epoch = 0;
    if (epoch != cache_epoch) [[unlikely]] {
        cache.clear();
        cache_epoch = epoch;
    }
    auto [it, inserted] = cache.try_emplace(lock, nullptr);
    if (inserted) it->second = &ompp::core::RegionRegistry::instance().lock(lock);
    return *it->second;
}

struct RecentLock {
    const void* lock;
    const RegionRecord* region;
};
struct RecentLocks {
    std::uint64_t epoch;
    RecentLock slots[16];
};
__thread RecentLocks t_recent_locks __attribute__((tls_model("initial-exec"))) = {};

[[gnu::always_inline]] inline const RegionRecord& lock_region(const void* lock) {
    RecentLocks& recent = t_recent_locks;
    if (const auto epoch = g_lock_sites_epoch.load(std::memory_order_acquire); epoch != recent.epoch) [[unlikely]] {
        recent = RecentLocks{.epoch = epoch, .slots = {}};
    }
    const auto address = reinterpret_cast<std::uintptr_t>(lock);
    RecentLock& slot = recent.slots[((address >> 3) ^ (address >> 9)) % std::size(recent.slots)];
    if (slot.lock != lock) [[unlikely]] {
        slot = {lock, &lock_region_of_any_lock(lock, recent.epoch)};
    }
    return *slot.region;
}

[[gnu::always_inline]] inline Measurement* lock_measurement() {
    Measurement* m = ompp::adapter::gate();
    return m != nullptr && ompp::adapter::measured(RegionKind::Lock) ? m : nullptr;
}

// The lock was acquired by a call made at `called`.  Traced first: the
// thread's operation stays a tail call.
[[gnu::always_inline]] inline void record_acquisition(ompp::core::ThreadState& thread, const RegionRecord& region,
                                                      void* lock, ompp::core::Ticks called,
                                                      ompp::core::Ticks acquired) {
    if (ompp::trace::recording()) [[unlikely]] {
        const std::uint32_t id = ompp::trace::lock_id(lock);
        ompp::adapter::traced(thread, Event::LockRequest, region, called, id);
        ompp::adapter::traced(thread, Event::LockAcquire, region, acquired, id);
    }
    thread.lock_acquired(region, lock, called, acquired);
}

// A lock call sits between two clock reads with nothing else: the thread and
// the region are found before the first (so their lookup is neither in
// enterT nor done while the lock is held), everything else follows the
// second.  What runs while the lock is held (an acquisition's second read
// and its visit, a release's first read) delays every thread waiting for it.
template <typename Acquire>
void measured_set(void* lock, Acquire acquire) {
    Measurement* m = lock_measurement();
    if (m == nullptr) {
        acquire(lock);
        return;
    }
    ompp::core::ThreadState& thread = m->this_thread();
    const RegionRecord& region = lock_region(lock);
    const auto called = m->now();
    acquire(lock);
    record_acquisition(thread, region, lock, called, m->now());
}

template <typename Release>
void measured_unset(void* lock, Release release) {
    Measurement* m = lock_measurement();
    if (m == nullptr) {
        release(lock);
        return;
    }
    ompp::core::ThreadState& thread = m->this_thread();
    const auto called = m->now();
    release(lock);
    const auto returned = m->now();
    if (ompp::trace::recording()) [[unlikely]] {
        ompp::adapter::traced(thread, Event::LockRelease, lock_region(lock), called, ompp::trace::lock_id(lock));
    }
    thread.lock_released(lock, called, returned);
}

template <typename Try>
int measured_test(void* lock, Try attempt) {
    Measurement* m = lock_measurement();
    if (m == nullptr) return attempt(lock);
    ompp::core::ThreadState& thread = m->this_thread();
    const RegionRecord& region = lock_region(lock);
    const auto called = m->now();
    const int acquired = attempt(lock);
    if (acquired != 0) record_acquisition(thread, region, lock, called, m->now());
    return acquired;
}

}  // namespace

extern "C" {

OMPP_API void POMP2_Lock_init_site(POMP2_Region_handle* handle, const char ctc[]) {
    t_init_site = &ompp::core::RegionRegistry::resolve(handle, ctc, RegionKind::Lock);
}

OMPP_API void POMP2_Init_lock(void* s) {
    static const auto init = omp_function<LockFn>("omp_init_lock");
    init(s);
    name_initialised_lock(s);
}
OMPP_API void POMP2_Destroy_lock(void* s) {
    static const auto destroy = omp_function<LockFn>("omp_destroy_lock");
    destroy(s);
}
OMPP_API void POMP2_Set_lock(void* s) {
    static const auto set = omp_function<LockFn>("omp_set_lock");
    measured_set(s, ompp::deadlock::watched_acquire<false>(set, OMPP_CALL_SITE));
}
OMPP_API void POMP2_Unset_lock(void* s) {
    static const auto unset = omp_function<LockFn>("omp_unset_lock");
    measured_unset(s, ompp::deadlock::watched_release<false>(unset));
}
OMPP_API int POMP2_Test_lock(void* s) {
    static const auto test = omp_function<TestLockFn>("omp_test_lock");
    return measured_test(s, ompp::deadlock::watched_attempt<false>(test, OMPP_CALL_SITE));
}
OMPP_API void POMP2_Init_nest_lock(void* s) {
    static const auto init = omp_function<LockFn>("omp_init_nest_lock");
    init(s);
    name_initialised_lock(s);
}
OMPP_API void POMP2_Destroy_nest_lock(void* s) {
    static const auto destroy = omp_function<LockFn>("omp_destroy_nest_lock");
    destroy(s);
}
OMPP_API void POMP2_Set_nest_lock(void* s) {
    static const auto set = omp_function<LockFn>("omp_set_nest_lock");
    measured_set(s, ompp::deadlock::watched_acquire<true>(set, OMPP_CALL_SITE));
}
OMPP_API void POMP2_Unset_nest_lock(void* s) {
    static const auto unset = omp_function<LockFn>("omp_unset_nest_lock");
    measured_unset(s, ompp::deadlock::watched_release<true>(unset));
}
OMPP_API int POMP2_Test_nest_lock(void* s) {
    static const auto test = omp_function<TestLockFn>("omp_test_nest_lock");
    return measured_test(s, ompp::deadlock::watched_attempt<true>(test, OMPP_CALL_SITE));
}

// omp_init_lock_with_hint is OpenMP 4.5 and libgomp 12 does not export it:
// without it the lock is made by omp_init_lock (a hint is only advice).
OMPP_API void POMP2_Init_lock_with_hint(void* s, int hint) {
    static const auto init = reinterpret_cast<HintLockFn>(dlsym(RTLD_DEFAULT, "omp_init_lock_with_hint"));
    if (init != nullptr) {
        init(s, hint);
        name_initialised_lock(s);
    } else {
        POMP2_Init_lock(s);
    }
}
OMPP_API void POMP2_Init_nest_lock_with_hint(void* s, int hint) {
    static const auto init = reinterpret_cast<HintLockFn>(dlsym(RTLD_DEFAULT, "omp_init_nest_lock_with_hint"));
    if (init != nullptr) {
        init(s, hint);
        name_initialised_lock(s);
    } else {
        POMP2_Init_nest_lock(s);
    }
}

}  // extern "C"
