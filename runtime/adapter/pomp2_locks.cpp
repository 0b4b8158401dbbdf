// OpenMP lock wrappers.  Locks are passed to the application's OpenMP
// runtime untouched (omp_lock_t is opaque here: libgomp and libomp lay it out
// differently), so libompp is compiled without OpenMP and declares the
// pointers as void*; the C ABI is the same.
#include <unordered_map>

#include "adapter/lifecycle.hpp"
#include "core/region_registry.hpp"

#define OMPP_API __attribute__((visibility("default")))

extern "C" {
void omp_init_lock(void*) __attribute__((weak));
void omp_destroy_lock(void*) __attribute__((weak));
void omp_set_lock(void*) __attribute__((weak));
void omp_unset_lock(void*) __attribute__((weak));
int omp_test_lock(void*) __attribute__((weak));
void omp_init_nest_lock(void*) __attribute__((weak));
void omp_destroy_nest_lock(void*) __attribute__((weak));
void omp_set_nest_lock(void*) __attribute__((weak));
void omp_unset_nest_lock(void*) __attribute__((weak));
int omp_test_nest_lock(void*) __attribute__((weak));
void omp_init_lock_with_hint(void*, int) __attribute__((weak));
void omp_init_nest_lock_with_hint(void*, int) __attribute__((weak));
}

namespace {

using ompp::core::Measurement;
using ompp::core::RegionRecord;
using ompp::model::RegionKind;

// One LOCK region per lock object; the per-thread cache keeps the registry's
// mutex off the lock path after a thread's first use of a lock.
const RegionRecord& lock_region(const void* lock) {
    thread_local std::unordered_map<const void*, const RegionRecord*> cache;
    auto [it, inserted] = cache.try_emplace(lock, nullptr);
    if (inserted) it->second = &ompp::core::RegionRegistry::instance().lock(lock);
    return *it->second;
}

Measurement* lock_measurement() {
    Measurement* m = ompp::adapter::gate();
    return m != nullptr && ompp::adapter::measured(RegionKind::Lock) ? m : nullptr;
}

template <typename Acquire>
void measured_set(void* lock, Acquire acquire) {
    Measurement* m = lock_measurement();
    if (m == nullptr) {
        acquire(lock);
        return;
    }
    const auto called = m->now();
    acquire(lock);
    m->this_thread().lock_acquired(lock_region(lock), called, m->now());
}

template <typename Release>
void measured_unset(void* lock, Release release) {
    Measurement* m = lock_measurement();
    if (m == nullptr) {
        release(lock);
        return;
    }
    const auto called = m->now();
    release(lock);
    m->this_thread().lock_released(lock_region(lock), called, m->now());
}

template <typename Try>
int measured_test(void* lock, Try attempt) {
    Measurement* m = lock_measurement();
    if (m == nullptr) return attempt(lock);
    const auto called = m->now();
    const int acquired = attempt(lock);
    if (acquired != 0) m->this_thread().lock_acquired(lock_region(lock), called, m->now());
    return acquired;
}

}  // namespace

extern "C" {

OMPP_API void POMP2_Init_lock(void* s) { omp_init_lock(s); }
OMPP_API void POMP2_Destroy_lock(void* s) { omp_destroy_lock(s); }
OMPP_API void POMP2_Set_lock(void* s) { measured_set(s, omp_set_lock); }
OMPP_API void POMP2_Unset_lock(void* s) { measured_unset(s, omp_unset_lock); }
OMPP_API int POMP2_Test_lock(void* s) { return measured_test(s, omp_test_lock); }
OMPP_API void POMP2_Init_nest_lock(void* s) { omp_init_nest_lock(s); }
OMPP_API void POMP2_Destroy_nest_lock(void* s) { omp_destroy_nest_lock(s); }
OMPP_API void POMP2_Set_nest_lock(void* s) { measured_set(s, omp_set_nest_lock); }
OMPP_API void POMP2_Unset_nest_lock(void* s) { measured_unset(s, omp_unset_nest_lock); }
OMPP_API int POMP2_Test_nest_lock(void* s) { return measured_test(s, omp_test_nest_lock); }
OMPP_API void POMP2_Init_lock_with_hint(void* s, int hint) { omp_init_lock_with_hint(s, hint); }
OMPP_API void POMP2_Init_nest_lock_with_hint(void* s, int hint) { omp_init_nest_lock_with_hint(s, hint); }

}  // extern "C"
