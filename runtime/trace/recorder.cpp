#include "trace/recorder.hpp"

#include "platform/kernel_io.hpp"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
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
// Set by stop(): a full chunk is not spilled any more (the finaliser may be
// reading the spill file and the buffer).
std::atomic<bool> g_stopped{false};
// Set in a fork()ed child: it has no spill writer thread to drain.
std::atomic<bool> g_forked_child{false};

// Flush mode's ring: four chunks per thread.  The thread fills one while
// the writer writes another, and the other two absorb the writer's stalls;
// a deeper ring cannot help a writer that is slower than the thread on
// average (then the thread waits, whatever the depth).
constexpr std::uint32_t kSpillChunks = 4;

// The slow path's words: an epoch word and a record of two words.  A
// chunk holds at least that many.
constexpr std::size_t kSlowPathWords = 3;

}  // namespace

// One chunk of a thread's ring.  `queued`, `count` and `next_queued` are
// guarded by the spill writer's mutex.
struct SpillChunk {
    Word* begin = nullptr;
    ThreadBuffer* owner = nullptr;
    std::size_t count = 0;  // words, once handed over
    bool queued = false;    // handed over and not yet written: the owner may not reuse it
    SpillChunk* next_queued = nullptr;
};

namespace {

// Feeds `decoder` the thread's words in recording order: the spill file's,
// then the buffer's.
template <typename Visit>
void decode(const ThreadBuffer& buffer, Decoder<Visit>& decoder) {
    if (buffer.spilled > 0) {
        constexpr std::size_t kBlock = 1 << 15;
        auto words = std::make_unique<Word[]>(kBlock);
        std::uint64_t done = 0;
        while (done < buffer.spilled) {
            const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, buffer.spilled - done));
            const ssize_t n = platform::kernel_io::pread(buffer.spill_fd, words.get(), want * sizeof(Word),
                                      static_cast<off_t>(done * sizeof(Word)));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            const auto got = static_cast<std::size_t>(n) / sizeof(Word);
            decoder.decode({words.get(), got});
            done += got;
        }
    }
    decoder.decode({buffer.begin, buffer.next});
}

// The records among a chunk's words.
std::uint64_t records_in(std::span<const Word> words) {
    std::uint64_t records = 0;
    Decoder count([&](const TraceEvent&) { ++records; });
    count.decode(words);
    return records;
}

// The records of a thread, spilled and buffered.
std::uint64_t records_of(const ThreadBuffer& buffer) {
    std::uint64_t records = 0;
    Decoder count([&](const TraceEvent&) { ++records; });
    decode(buffer, count);
    return records;
}

// The spill file: created on first need and unlinked at once, so nothing is
// left behind whatever way the process ends.
bool open_spill_file(ThreadBuffer& buffer) {
    std::string path = g_settings.spill_directory + "/ompp-trace-XXXXXX";
    const int fd = platform::kernel_io::mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0) return false;
    platform::kernel_io::unlink(path.c_str());
    buffer.spill_fd = fd;
    return true;
}

bool write_all(int fd, const void* data, std::size_t bytes, off_t offset) {
    const auto* from = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = platform::kernel_io::pwrite(fd, from, bytes, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        from += n;
        bytes -= static_cast<std::size_t>(n);
        offset += n;
    }
    return true;
}

// Appends a chunk to its owner's spill file (by the spill writer thread, or
// by the owner if that thread could not be started).
void write_chunk(const SpillChunk& chunk) {
    ThreadBuffer& buffer = *chunk.owner;
    const std::span<const Word> words(chunk.begin, chunk.count);
    if (!buffer.spill_failed && (buffer.spill_fd >= 0 || open_spill_file(buffer)) &&
        write_all(buffer.spill_fd, words.data(), words.size_bytes(),
                  static_cast<off_t>(buffer.spilled * sizeof(Word)))) {
        buffer.spilled += words.size();
    } else {
        buffer.spill_failed = true;
        buffer.lost += records_in(words);
    }
}

// Every signal blocked while in scope.  The spill writer thread inherits
// the mask (no handler ever runs on it), and a handler that waits for the
// profile (adapter/lifecycle.cpp) never interrupts a thread holding the
// writer's mutex, which stop() needs.
class SignalsBlocked {
public:
    SignalsBlocked() {
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &previous_);
    }
    ~SignalsBlocked() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
    SignalsBlocked(const SignalsBlocked&) = delete;
    SignalsBlocked& operator=(const SignalsBlocked&) = delete;

private:
    sigset_t previous_;
};

// One background thread for all threads' spills, started on the first
// hand-over: full chunks queue in hand-over order, so each thread's spill
// file gets its chunks in recording order.
class SpillWriter {
public:
    // Hands the owner's full chunk over and moves it to the next one,
    // waiting while that one is still queued.  False: stop() has closed the
    // queue, the chunk stays where it is.
    bool hand_over(ThreadBuffer& buffer) {
        const SignalsBlocked blocked;
        std::unique_lock lock(mutex_);
        if (closed_) return false;
        SpillChunk& full = buffer.chunks[buffer.filling];
        full.count = static_cast<std::size_t>(buffer.next - buffer.begin);
        if (running()) {
            enqueue(full);
        } else {
            write_chunk(full);
        }
        buffer.filling = (buffer.filling + 1) % buffer.chunk_count;
        SpillChunk& fresh = buffer.chunks[buffer.filling];
        const std::size_t below_end = static_cast<std::size_t>(buffer.end - buffer.begin);
        buffer.begin = buffer.next = fresh.begin;
        buffer.end = fresh.begin + below_end;
        written_.wait(lock, [&] { return !fresh.queued; });
        return true;
    }

    // Reopens the queue (start()).
    void open() {
        const std::lock_guard lock(mutex_);
        closed_ = false;
    }

    // Closes the queue, writes what is queued and joins the thread.
    void drain() {
        {
            const std::lock_guard lock(mutex_);
            closed_ = true;
        }
        queued_.notify_one();
        if (thread_.joinable()) thread_.join();
    }

private:
    // Starts the thread if it is not running; false if it cannot be started.
    bool running() {
        if (thread_.joinable()) return true;
        try {
            thread_ = std::thread([this] { run(); });
        } catch (const std::system_error&) {
            return false;
        }
        return true;
    }

    void enqueue(SpillChunk& chunk) {
        chunk.queued = true;
        chunk.next_queued = nullptr;
        (tail_ != nullptr ? tail_->next_queued : head_) = &chunk;
        tail_ = &chunk;
        queued_.notify_one();
    }

    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            queued_.wait(lock, [&] { return head_ != nullptr || closed_; });
            if (head_ == nullptr) return;
            SpillChunk& chunk = *head_;
            head_ = chunk.next_queued;
            if (head_ == nullptr) tail_ = nullptr;
            lock.unlock();
            write_chunk(chunk);
            lock.lock();
            chunk.queued = false;
            written_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable queued_;   // the thread waits for chunks (or the close)
    std::condition_variable written_;  // owners wait for a chunk to come back
    SpillChunk* head_ = nullptr;
    SpillChunk* tail_ = nullptr;
    bool closed_ = false;
    std::thread thread_;
};

// Leaked on purpose, like the buffers: threads still recording while the
// process exits may reach it after static destruction.
SpillWriter& spill_writer() {
    static auto* writer = new SpillWriter;
    return *writer;
}

// Buffers live until the process ends: late events of other threads may
// still reach them while it exits.
ThreadBuffer* new_buffer(std::uint32_t thread) {
    const std::size_t words = std::max(g_settings.buffer_bytes / sizeof(Word), kSlowPathWords);
    auto* buffer = new ThreadBuffer{};
    buffer->chunk_count = g_settings.mode == Mode::Flush ? static_cast<std::uint32_t>(std::min<std::size_t>(
                                                                kSpillChunks, words / kSlowPathWords))
                                                          : 1;
    const std::size_t chunk_words = words / buffer->chunk_count;
    buffer->chunks = new SpillChunk[buffer->chunk_count];
    auto* storage = new Word[chunk_words * buffer->chunk_count];
    for (std::uint32_t i = 0; i < buffer->chunk_count; ++i) {
        buffer->chunks[i].begin = storage + i * chunk_words;
        buffer->chunks[i].owner = buffer;
    }
    buffer->begin = buffer->next = storage;
    buffer->end = storage + chunk_words - 1;
    buffer->thread = thread;
    return buffer;
}

// A fork()ed child shares its parent's spill files and copies of its buffers,
// but not the spill writer thread: it traces nothing (its profile is written
// as usual).
void stop_in_child() {
    g_recording.store(false);
    g_stopped.store(true);
    g_forked_child.store(true);
}

// The thread's buffer with room for the slow path's words: made on its
// first record, its chunk handed over when short of room.  Null: drop.
ThreadBuffer* room_for_slow_path(std::uint32_t thread) {
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
    if (static_cast<std::size_t>(buffer->end - buffer->next) + 1 >= kSlowPathWords) return buffer;
    if (g_settings.mode == Mode::Memory || g_stopped.load(std::memory_order_acquire) ||
        !spill_writer().hand_over(*buffer)) {
        ++buffer->dropped;
        return nullptr;
    }
    // Each chunk begins with its epoch word: a chunk that a failed spill
    // write lost takes no epoch along.
    buffer->epoch = kNoEpoch;
    return buffer;
}

}  // namespace

ThreadBuffer* record_slowly(std::uint32_t thread, Event event, std::uint32_t region, std::uint64_t time,
                            std::uint64_t value) {
    ThreadBuffer* buffer = room_for_slow_path(thread);
    if (buffer == nullptr) return nullptr;
    if (!same_epoch(time, buffer->epoch)) {
        buffer->next = store_epoch(buffer->next, time);
        buffer->epoch = time;
    }
    buffer->next = store(buffer->next, event, region < kNoRegion ? region : 0, time, value);
    return buffer;
}

namespace {

// record_out_of_line()'s slow path, tail-called: its common case then
// needs no stack frame.
[[gnu::noinline]] std::uint64_t record_keeping_buffer(ThreadBuffer*& buffer, std::uint32_t thread, Event event,
                                                      std::uint32_t region, std::uint64_t time, std::uint64_t value) {
    buffer = record_slowly(thread, event, region, time, value);
    return time;
}

}  // namespace

std::uint64_t record_out_of_line(ThreadBuffer*& buffer, std::uint32_t thread, Event event, std::uint32_t region,
                                 std::uint64_t time, std::uint64_t value) {
    if (try_record(buffer, event, region, time, value)) [[likely]] return time;
    return record_keeping_buffer(buffer, thread, event, region, time, value);
}

void start(const Settings& settings) {
    static std::once_flag fork_handler;
    std::call_once(fork_handler, [] { ::pthread_atfork(nullptr, nullptr, stop_in_child); });
    std::lock_guard lock(g_mutex);
    g_settings = settings;
    g_stopped.store(false);
    spill_writer().open();
    g_recording.store(true);
}

// No lock in a fork()ed child: another thread of its parent may have held
// a mutex at the fork.
bool stop() {
    const bool was_recording = g_recording.exchange(false);
    g_stopped.store(true, std::memory_order_release);
    if (!g_forked_child.load()) spill_writer().drain();
    return was_recording;
}

Totals totals() {
    std::lock_guard lock(g_mutex);
    Totals result;
    result.mode = g_settings.mode;
    for (const auto& slot : g_buffers) {
        const ThreadBuffer* buffer = slot.load(std::memory_order_relaxed);
        if (buffer == nullptr) continue;
        ++result.threads;
        result.records += records_of(*buffer);
        result.dropped += buffer->dropped + buffer->lost;
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

void read_events(std::uint32_t thread, const std::function<void(const TraceEvent&)>& visit) {
    const ThreadBuffer* buffer = buffer_of(thread);
    if (buffer == nullptr) return;
    Decoder decoder(std::cref(visit));
    decode(*buffer, decoder);
}

void reset_for_testing() {
    std::lock_guard lock(g_mutex);
    for (auto& slot : g_buffers) {
        ThreadBuffer* buffer = slot.exchange(nullptr);
        if (buffer == nullptr) continue;
        if (buffer->spill_fd >= 0) platform::kernel_io::close(buffer->spill_fd);
        delete[] buffer->chunks[0].begin;
        delete[] buffer->chunks;
        delete buffer;
    }
    g_untraced.store(0);
}

}  // namespace ompp::trace
