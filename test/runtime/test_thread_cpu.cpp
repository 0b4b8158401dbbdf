// core/thread_cpu: a thread state's CPU-time source carried on by another OS
// thread (recycling by team position) reads that thread, not the ended one.
#include <catch2/catch.hpp>

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/thread_cpu.hpp"

using namespace ompp;

namespace {

bool pin_to_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

void spin_for(std::chrono::milliseconds wall) {
    const auto end = std::chrono::steady_clock::now() + wall;
    while (std::chrono::steady_clock::now() < end) {
    }
}

}  // namespace

TEST_CASE("a released CPU source reads the thread that carries on, run-queue delay included", "[core][cpu]") {
    if (access("/proc/thread-self/schedstat", R_OK) != 0) {
        WARN("no /proc/thread-self/schedstat: not tested");
        return;
    }
    core::ThreadCpuSource source;
    std::thread([&] { source.read(); }).join();  // opened by a thread that has ended
    source.release();                            // as Measurement does when it parks the state

    const int cpu = sched_getcpu();
    core::ThreadCpu before{}, after{};
    bool rival_pinned = false, reader_pinned = false;
    std::atomic<bool> start{false};
    // Two busy threads on one CPU: each waits, runnable, for the other.
    std::thread rival([&] {
        rival_pinned = pin_to_cpu(cpu);
        while (!start.load()) {
        }
        spin_for(std::chrono::milliseconds(200));
    });
    std::thread([&] {
        reader_pinned = pin_to_cpu(cpu);
        start = true;
        before = source.read();
        spin_for(std::chrono::milliseconds(200));
        after = source.read();
    }).join();
    rival.join();
    if (!rival_pinned || !reader_pinned) {
        WARN("threads cannot be pinned to one CPU here: not tested");
        return;
    }
    CHECK(after.cpu_ns - before.cpu_ns > 20'000'000u);
    CHECK(after.run_delay_ns - before.run_delay_ns > 20'000'000u);
}
