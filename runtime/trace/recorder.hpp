// recorder.hpp - OMPP_TRACE: every POMP2 event as a compact binary record in
// a per-thread buffer, beside the profile.
//
// The hot path (record()) is one relaxed load and a well-predicted branch
// when tracing is off; when on, a store of one 24-byte record into the
// calling thread's buffer, without locks or allocation once the thread's
// buffer exists (its first event allocates it).  A full buffer is written
// to the thread's spill file (flush mode: nothing is lost) or further events
// are counted and dropped (memory mode: the first records are kept).  At
// program end the writer (otf2_archive.hpp) reads every thread's records,
// spilled then buffered, in recording order.
//
// Buffers are indexed by the measurement's thread id: a thread state that
// is recycled for a new OS thread (core/measurement.hpp) carries on with
// the same buffer, and two OS threads never use one id at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace ompp::trace {

// What the adapter saw; the writer maps each to OTF2 (docs/tracing.md).
enum class Event : std::uint8_t {
    Enter,         // a construct's enter (or begin) call
    Leave,         // its exit (or end) call
    BodyBegin,     // critical/ordered/single/section/taskgroup body begins
    BodyEnd,
    BarrierEnter,  // the implicit barrier of `region`
    BarrierLeave,
    Fork,          // value: threads requested (0: unknown)
    Join,
    TeamBegin,     // value: the thread that forked the team
    TeamEnd,
    TaskCreate,    // value: the new task's handle (an Enter of the create region)
    TaskBegin,     // value: the task's handle
    TaskEnd,
    Resume,        // value: the task this thread carries on with after a scheduling point
    LockRequest,   // value: the lock's address
    LockAcquire,   // value: the lock's address
    LockRelease,   // value: the lock's address
};
inline constexpr int kEventTypes = static_cast<int>(Event::LockRelease) + 1;

struct Record {
    std::uint64_t time;
    std::uint64_t value;
    std::uint32_t region;  // model::Region::id (0: none)
    Event event;
};
static_assert(sizeof(Record) == 24);

enum class Mode : std::uint8_t { Flush, Memory };

struct Settings {
    std::size_t buffer_bytes = std::size_t{4} << 20;  // per thread
    Mode mode = Mode::Flush;
    std::string spill_directory = "/tmp";
};

// One thread's buffer.  Only its owner writes; the finaliser reads it once
// recording has stopped.
struct ThreadBuffer {
    Record* next;
    Record* end;
    Record* begin;
    std::uint32_t thread;
    int spill_fd = -1;
    std::uint64_t spilled = 0;  // records in the spill file
    std::uint64_t dropped = 0;  // memory mode: records not kept
    bool spill_failed = false;
};

inline constexpr std::uint32_t kMaxTracedThreads = 4096;

extern std::atomic<bool> g_recording;
extern std::atomic<ThreadBuffer*> g_buffers[kMaxTracedThreads];

inline bool recording() { return g_recording.load(std::memory_order_relaxed); }

// The slow path: the thread's first record, or a full buffer.  Null: drop.
ThreadBuffer* make_room(std::uint32_t thread);

inline void record(std::uint32_t thread, Event event, std::uint32_t region, std::uint64_t time,
                   std::uint64_t value = 0) {
    ThreadBuffer* buffer = thread < kMaxTracedThreads ? g_buffers[thread].load(std::memory_order_relaxed) : nullptr;
    if (buffer == nullptr || buffer->next == buffer->end) [[unlikely]] {
        buffer = make_room(thread);
        if (buffer == nullptr) return;
    }
    *buffer->next++ = Record{time, value, region, event};
}

// Starts recording with `settings` (the adapter calls it before the first
// event when OMPP_TRACE is set).
void start(const Settings& settings);
// Stops recording: events from now on are not recorded, buffers are not
// spilled any more.  Returns false if recording was never started.
bool stop();

struct Totals {
    std::uint64_t records = 0;
    std::uint64_t dropped = 0;
    std::uint32_t threads = 0;
    std::uint32_t untraced_threads = 0;  // ids past kMaxTracedThreads
    bool spill_failed = false;           // a spill file could not be written: records lost
};
Totals totals();

// After stop(): the ids of the threads that recorded, ascending, and one
// thread's records in recording order, in chunks (the spill file's, then
// the buffer's).
std::vector<std::uint32_t> traced_threads();
void read_records(std::uint32_t thread, const std::function<void(std::span<const Record>)>& chunk);

// Tests: forget every buffer (after stop()).
void reset_for_testing();

}  // namespace ompp::trace
