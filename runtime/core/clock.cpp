#include "core/clock.hpp"

#include "platform/kernel_io.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace ompp::core {
namespace {

// The TSC is usable as a wall clock only if it ticks at a constant rate in
// every P-/C-state; Linux reports both properties as cpuinfo flags.
bool tsc_is_invariant() {
#if defined(__x86_64__) || defined(__i386__)
    const std::string cpuinfo = platform::kernel_io::read_file("/proc/cpuinfo");
    std::size_t begin = 0;
    while (begin < cpuinfo.size()) {
        const std::size_t end = std::min(cpuinfo.find('\n', begin), cpuinfo.size());
        const std::string_view line(cpuinfo.data() + begin, end - begin);
        begin = end + 1;
        if (line.starts_with("flags")) {
            return line.find(" constant_tsc") != std::string::npos &&
                   line.find(" nonstop_tsc") != std::string::npos;
        }
    }
#endif
    return false;
}

}  // namespace

Clock Clock::calibrated(bool allow_tsc) {
    Clock clock;
#if defined(__x86_64__) || defined(__i386__)
    if (allow_tsc && tsc_is_invariant()) {
        clock.source_ = ClockSource::Tsc;
        clock.ns_start_ = monotonic_ns();
        clock.tsc_start_ = __rdtsc();
        // A short spin gives a first estimate; seconds_per_tick() refines it.
        Ticks ns_end = 0;
        Ticks tsc_end = 0;
        do {
            ns_end = monotonic_ns();
            tsc_end = __rdtsc();
        } while (ns_end - clock.ns_start_ < 2'000'000);
        if (tsc_end > clock.tsc_start_) {
            clock.start_seconds_per_tick_ =
                static_cast<double>(ns_end - clock.ns_start_) * 1e-9 / static_cast<double>(tsc_end - clock.tsc_start_);
            return clock;
        }
    }
#else
    (void)allow_tsc;
#endif
    clock.source_ = ClockSource::Monotonic;
    return clock;
}

Clock Clock::manual(const std::atomic<Ticks>* ticks) {
    Clock clock;
    clock.source_ = ClockSource::Manual;
    clock.manual_ = ticks;
    return clock;
}

double Clock::seconds_per_tick() const {
    if (source_ != ClockSource::Tsc) return 1e-9;
#if defined(__x86_64__) || defined(__i386__)
    const Ticks ns = monotonic_ns() - ns_start_;
    const Ticks tsc = __rdtsc() - tsc_start_;
    // Below ~50 ms the start-up estimate is the better one.
    if (ns > 50'000'000 && tsc > 0) return static_cast<double>(ns) * 1e-9 / static_cast<double>(tsc);
#endif
    return start_seconds_per_tick_;
}

}  // namespace ompp::core
