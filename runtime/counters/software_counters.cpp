#include "counters/software_counters.hpp"

#include <sys/resource.h>
#include <time.h>

#include <array>

namespace ompp::counters {

namespace {

constexpr std::array kNames{
    SoftwareEventName{"cpu_time", SoftwareEvent::CpuTime, "CPU time of the thread in ns (CLOCK_THREAD_CPUTIME_ID)"},
    SoftwareEventName{"thread_cputime", SoftwareEvent::CpuTime, "alias of cpu_time"},
    SoftwareEventName{"page_faults", SoftwareEvent::PageFaults, "minor + major page faults (getrusage RUSAGE_THREAD)"},
    SoftwareEventName{"minor_faults", SoftwareEvent::MinorFaults, "minor page faults"},
    SoftwareEventName{"major_faults", SoftwareEvent::MajorFaults, "major page faults"},
    SoftwareEventName{"ctx_switches", SoftwareEvent::ContextSwitches, "voluntary + involuntary context switches"},
    SoftwareEventName{"voluntary_ctx_switches", SoftwareEvent::VoluntaryContextSwitches,
                      "voluntary context switches (the thread blocked)"},
    SoftwareEventName{"involuntary_ctx_switches", SoftwareEvent::InvoluntaryContextSwitches,
                      "involuntary context switches (the thread was preempted)"},
};

}  // namespace

std::span<const SoftwareEventName> software_event_names() { return kNames; }

std::optional<SoftwareEvent> find_software_event(std::string_view name) {
    for (const auto& entry : kNames)
        if (entry.name == name) return entry.event;
    return std::nullopt;
}

bool needs_rusage(SoftwareEvent event) { return event != SoftwareEvent::CpuTime; }

SoftwareSample::SoftwareSample(bool needs_cpu_time, bool needs_rusage) {
    timespec ts{};
    if (needs_cpu_time && clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        cpu_time_ns_ = static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
    if (!needs_rusage) return;
    rusage usage{};
    if (getrusage(RUSAGE_THREAD, &usage) != 0) return;
    minor_faults_ = static_cast<std::uint64_t>(usage.ru_minflt);
    major_faults_ = static_cast<std::uint64_t>(usage.ru_majflt);
    voluntary_switches_ = static_cast<std::uint64_t>(usage.ru_nvcsw);
    involuntary_switches_ = static_cast<std::uint64_t>(usage.ru_nivcsw);
}

std::uint64_t SoftwareSample::value(SoftwareEvent event) const {
    switch (event) {
    case SoftwareEvent::CpuTime: return cpu_time_ns_;
    case SoftwareEvent::PageFaults: return minor_faults_ + major_faults_;
    case SoftwareEvent::MinorFaults: return minor_faults_;
    case SoftwareEvent::MajorFaults: return major_faults_;
    case SoftwareEvent::ContextSwitches: return voluntary_switches_ + involuntary_switches_;
    case SoftwareEvent::VoluntaryContextSwitches: return voluntary_switches_;
    case SoftwareEvent::InvoluntaryContextSwitches: return involuntary_switches_;
    }
    return 0;
}

}  // namespace ompp::counters
