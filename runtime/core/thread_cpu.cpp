#include "core/thread_cpu.hpp"

#include "platform/kernel_io.hpp"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>

namespace ompp::core {

ThreadCpuSource::~ThreadCpuSource() { release(); }

void ThreadCpuSource::release() {
    if (schedstat_fd_ >= 0) platform::kernel_io::close(schedstat_fd_);
    schedstat_fd_ = kNotOpened;
}

ThreadCpu ThreadCpuSource::read() {
    if (schedstat_fd_ == kNotOpened) schedstat_fd_ = platform::kernel_io::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (schedstat_fd_ >= 0) {
        // "<cpu time ns> <run-queue delay ns> <timeslices>\n"
        char text[96];
        const ssize_t length = platform::kernel_io::pread(schedstat_fd_, text, sizeof text - 1, 0);
        if (length > 0) {
            text[length] = '\0';
            char* rest = nullptr;
            const std::uint64_t cpu = std::strtoull(text, &rest, 10);
            const std::uint64_t delay = std::strtoull(rest, nullptr, 10);
            if (cpu > 0) return {cpu, delay};
        }
    }
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return {static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec), 0};
}

}  // namespace ompp::core
