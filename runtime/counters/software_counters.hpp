// software_counters.hpp - per-thread counters that need no PMU: CPU time
// from CLOCK_THREAD_CPUTIME_ID, page faults and context switches from
// getrusage(RUSAGE_THREAD).  Usable on any Linux machine, including VMs
// without hardware counters.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ompp::counters {

enum class SoftwareEvent : std::uint8_t {
    CpuTime,                 // ns of CPU time of the calling thread
    PageFaults,              // minor + major
    MinorFaults,
    MajorFaults,
    ContextSwitches,         // voluntary + involuntary
    VoluntaryContextSwitches,
    InvoluntaryContextSwitches,
};

struct SoftwareEventName {
    std::string_view name;
    SoftwareEvent event;
    std::string_view description;
};

// Every accepted name (aliases included), for lookup and for messages.
std::span<const SoftwareEventName> software_event_names();
std::optional<SoftwareEvent> find_software_event(std::string_view name);

// Reads the calling thread's values.  Each system call is made only when
// one of the configured events needs it, and once for all of them.
class SoftwareSample {
public:
    SoftwareSample(bool needs_cpu_time, bool needs_rusage);
    std::uint64_t value(SoftwareEvent event) const;

private:
    std::uint64_t cpu_time_ns_ = 0;
    std::uint64_t minor_faults_ = 0, major_faults_ = 0;
    std::uint64_t voluntary_switches_ = 0, involuntary_switches_ = 0;
};

bool needs_rusage(SoftwareEvent event);

}  // namespace ompp::counters
