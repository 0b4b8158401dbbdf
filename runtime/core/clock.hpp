// clock.hpp - the measurement clock.  Ticks are read in the hot path and
// turned into seconds only when a profile is built.
//
// Sources: the TSC (when the CPU declares it constant and non-stop; ~10 ns a
// read), clock_gettime(CLOCK_MONOTONIC) otherwise (~25 ns), or a manual clock
// that tests advance by hand (one tick = one nanosecond).
#pragma once

#include <atomic>
#include <cstdint>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace ompp::core {

using Ticks = std::uint64_t;

enum class ClockSource : std::uint8_t { Tsc, Monotonic, Manual };

class Clock {
public:
    // The best source this machine offers, calibrated now.
    static Clock calibrated(bool allow_tsc = true);
    // A clock that reads `*ticks`; tests own the variable and advance it.
    static Clock manual(const std::atomic<Ticks>* ticks);

    // Plain rdtsc, neither rdtscp nor lfence: a duration is the difference
    // of two reads on one thread, each taken between POMP2 calls that are
    // themselves not ordered against the measured code, so the few cycles
    // of out-of-order skew a fence would remove are below the resolution
    // that matters and would cost ~2x per read.  Thread migration is safe
    // with an invariant TSC (synchronised across cores).
    Ticks now() const { return reads_without_call() ? read_without_call() : monotonic_ns(); }
    // The TSC and a manual clock read without a call: an event's common
    // case that reads one of them needs no stack frame.
    bool reads_without_call() const {
#if defined(__x86_64__) || defined(__i386__)
        if (source_ == ClockSource::Tsc) [[likely]] return true;
#endif
        return source_ == ClockSource::Manual;
    }
    // now() of a clock that reads_without_call().
    Ticks read_without_call() const {
#if defined(__x86_64__) || defined(__i386__)
        if (source_ == ClockSource::Tsc) [[likely]] return __rdtsc();
#endif
        return manual_->load(std::memory_order_relaxed);
    }

    ClockSource source() const { return source_; }
    // The variable a manual clock reads; null for the others.
    const std::atomic<Ticks>* manual_ticks() const { return manual_; }
    // Seconds per tick.  For the TSC the calibration is refined over the whole
    // run each time this is asked, so long runs convert precisely.
    double seconds_per_tick() const;
    double to_seconds(Ticks ticks) const { return static_cast<double>(ticks) * seconds_per_tick(); }

    static Ticks monotonic_ns() {
        timespec ts{};
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return static_cast<Ticks>(ts.tv_sec) * 1'000'000'000ULL + static_cast<Ticks>(ts.tv_nsec);
    }

private:
    Clock() = default;
    ClockSource source_ = ClockSource::Monotonic;
    const std::atomic<Ticks>* manual_ = nullptr;
    // TSC calibration: a reference pair taken at start and the rate measured then.
    Ticks tsc_start_ = 0;
    Ticks ns_start_ = 0;
    double start_seconds_per_tick_ = 1e-9;
};

}  // namespace ompp::core
