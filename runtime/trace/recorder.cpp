#include "trace/recorder.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace ompp::trace {

std::atomic<bool> g_recording{false};
std::atomic<ThreadBuffer*> g_buffers[kMaxTracedThreads] = {};

namespace {

std::mutex g_mutex;  // buffer creation, start, stop
Settings g_settings;
std::atomic<std::uint32_t> g_untraced{0};
// Set by stop(): a full buffer is not spilled any more (the finaliser may be
// reading the spill file and the buffer).
std::atomic<bool> g_stopped{false};

// Buffers live until the process ends: late events of other threads may
// still reach them while it exits.
ThreadBuffer* new_buffer(std::uint32_t thread) {
    const std::size_t records = std::max<std::size_t>(g_settings.buffer_bytes / sizeof(Record), 2);
    auto* buffer = new ThreadBuffer{};
    buffer->begin = new Record[records];
    buffer->next = buffer->begin;
    buffer->end = buffer->begin + records;
    buffer->thread = thread;
    return buffer;
}

// The spill file: created on first need and unlinked at once, so nothing is
// left behind whatever way the process ends.
bool open_spill_file(ThreadBuffer& buffer) {
    std::string path = g_settings.spill_directory + "/ompp-trace-XXXXXX";
    const int fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0) return false;
    ::unlink(path.c_str());
    buffer.spill_fd = fd;
    return true;
}

bool write_all(int fd, const void* data, std::size_t bytes) {
    const auto* from = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(fd, from, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        from += n;
        bytes -= static_cast<std::size_t>(n);
    }
    return true;
}

void spill(ThreadBuffer& buffer) {
    const auto count = static_cast<std::size_t>(buffer.next - buffer.begin);
    if (!buffer.spill_failed && (buffer.spill_fd >= 0 || open_spill_file(buffer)) &&
        write_all(buffer.spill_fd, buffer.begin, count * sizeof(Record))) {
        buffer.spilled += count;
    } else {
        buffer.spill_failed = true;
        buffer.dropped += count;
    }
    buffer.next = buffer.begin;
}

// A fork()ed child shares its parent's spill files and copies of its buffers:
// it traces nothing (its profile is written as usual).
void stop_in_child() {
    g_recording.store(false);
    g_stopped.store(true);
}

}  // namespace

ThreadBuffer* make_room(std::uint32_t thread) {
    if (thread >= kMaxTracedThreads) {
        g_untraced.fetch_add(1, std::memory_order_relaxed);
        return nullptr;
    }
    ThreadBuffer* buffer = g_buffers[thread].load(std::memory_order_relaxed);
    if (buffer == nullptr) {
        std::lock_guard lock(g_mutex);
        if (!g_recording.load()) return nullptr;
        buffer = new_buffer(thread);
        g_buffers[thread].store(buffer, std::memory_order_relaxed);
        return buffer;
    }
    if (g_settings.mode == Mode::Memory || g_stopped.load(std::memory_order_acquire)) {
        ++buffer->dropped;
        return nullptr;
    }
    spill(*buffer);
    return buffer;
}

void start(const Settings& settings) {
    static std::once_flag fork_handler;
    std::call_once(fork_handler, [] { ::pthread_atfork(nullptr, nullptr, stop_in_child); });
    std::lock_guard lock(g_mutex);
    g_settings = settings;
    g_stopped.store(false);
    g_recording.store(true);
}

// No lock: a fork()ed child may stop while another thread of its parent
// held the mutex at the fork.
bool stop() {
    const bool was_recording = g_recording.exchange(false);
    g_stopped.store(true, std::memory_order_release);
    return was_recording;
}

Totals totals() {
    std::lock_guard lock(g_mutex);
    Totals result;
    for (const auto& slot : g_buffers) {
        const ThreadBuffer* buffer = slot.load(std::memory_order_relaxed);
        if (buffer == nullptr) continue;
        ++result.threads;
        result.records += buffer->spilled + static_cast<std::uint64_t>(buffer->next - buffer->begin);
        result.dropped += buffer->dropped;
        result.spill_failed = result.spill_failed || buffer->spill_failed;
    }
    result.untraced_threads = g_untraced.load();
    return result;
}

std::vector<std::uint32_t> traced_threads() {
    std::lock_guard lock(g_mutex);
    std::vector<std::uint32_t> threads;
    for (std::uint32_t id = 0; id < kMaxTracedThreads; ++id) {
        if (g_buffers[id].load(std::memory_order_relaxed) != nullptr) threads.push_back(id);
    }
    return threads;
}

TraceEvent decode(const Record& record, std::uint64_t origin) {
    constexpr std::uint64_t kTimeMask = (std::uint64_t{1} << 52) - 1;
    const auto event = static_cast<Event>(record.region_event >> 24);
    const std::uint64_t high = record.stamp >> 52;
    const std::uint64_t value = carries_task(event) && high != 0 ? high << 40 | record.low : record.low;
    const std::uint64_t time = origin + (((record.stamp & kTimeMask) - origin) & kTimeMask);
    return {time, value, record.region_event & 0xffffffU, event};
}

std::uint32_t lock_id(const void* lock) {
    static std::mutex mutex;
    static std::unordered_map<const void*, std::uint32_t> ids;
    thread_local std::unordered_map<const void*, std::uint32_t> cache;
    if (const auto it = cache.find(lock); it != cache.end()) return it->second;
    std::lock_guard guard(mutex);
    const std::uint32_t id = ids.try_emplace(lock, static_cast<std::uint32_t>(ids.size())).first->second;
    cache.emplace(lock, id);
    return id;
}

void read_events(std::uint32_t thread, std::uint64_t origin, const std::function<void(const TraceEvent&)>& visit) {
    const auto chunk = [&](std::span<const Record> records) {
        for (const Record& record : records) visit(decode(record, origin));
    };
    const ThreadBuffer* buffer =
        thread < kMaxTracedThreads ? g_buffers[thread].load(std::memory_order_relaxed) : nullptr;
    if (buffer == nullptr) return;
    if (buffer->spilled > 0) {
        constexpr std::size_t kChunk = 1 << 14;
        auto records = std::make_unique<Record[]>(kChunk);
        std::uint64_t done = 0;
        while (done < buffer->spilled) {
            const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, buffer->spilled - done));
            const ssize_t n = ::pread(buffer->spill_fd, records.get(), want * sizeof(Record),
                                      static_cast<off_t>(done * sizeof(Record)));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            const auto got = static_cast<std::size_t>(n) / sizeof(Record);
            chunk({records.get(), got});
            done += got;
        }
    }
    chunk({buffer->begin, static_cast<std::size_t>(buffer->next - buffer->begin)});
}

void reset_for_testing() {
    std::lock_guard lock(g_mutex);
    for (auto& slot : g_buffers) {
        ThreadBuffer* buffer = slot.exchange(nullptr);
        if (buffer == nullptr) continue;
        if (buffer->spill_fd >= 0) ::close(buffer->spill_fd);
        delete[] buffer->begin;
        delete buffer;
    }
    g_untraced.store(0);
}

}  // namespace ompp::trace
