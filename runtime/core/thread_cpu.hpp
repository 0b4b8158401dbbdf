// thread_cpu.hpp - the calling thread's CPU time and the time it waited,
// runnable, for a CPU: the signal that tells a thread that was preempted (an
// oversubscribed machine, other programs on its CPUs) from one that waited
// for other threads or slept.
//
// Linux keeps both per thread in /proc/thread-self/schedstat (the CPU time
// and the run-queue delay, in ns); one pread of a descriptor kept open per
// thread reads them.  That is a system call (a few microseconds on a VM),
// so the hot path reads it only for sampled parallel-region bodies
// (ThreadState::parallel_begin).  Without that file, CPU time comes from
// CLOCK_THREAD_CPUTIME_ID and the run-queue delay is unknown (0).
#pragma once

#include <cstdint>

namespace ompp::core {

// No default member initialisers: a Frame carries one that is written only
// when its body is sampled, so pushing a frame stores nothing more.
struct ThreadCpu {
    std::uint64_t cpu_ns;
    std::uint64_t run_delay_ns;  // runnable but not running
};

// One per thread state, used by the thread that owns the state only.  A
// state carried on by another OS thread (Measurement's recycling by team
// position) must be released first: the open file is the old thread's.
class ThreadCpuSource {
public:
    ThreadCpuSource() = default;
    ThreadCpuSource(const ThreadCpuSource&) = delete;
    ThreadCpuSource& operator=(const ThreadCpuSource&) = delete;
    ~ThreadCpuSource();

    ThreadCpu read();
    // As the owning OS thread ends: closes its file, so the next owner opens its own.
    void release();

private:
    static constexpr int kNotOpened = -2;
    int schedstat_fd_ = kNotOpened;  // -1: the file is not there
};

}  // namespace ompp::core
