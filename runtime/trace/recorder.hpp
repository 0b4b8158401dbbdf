// recorder.hpp - OMPP_TRACE: every POMP2 event as a compact binary record in
// a per-thread buffer, beside the profile.
//
// The hot path (record()) is one relaxed load and a well-predicted branch
// when tracing is off; when on, a store of one 16-byte record into the
// calling thread's buffer, without locks or allocation once the thread's
// buffer exists (its first event allocates it).  In flush mode (nothing is
// lost) the buffer is a ring of chunks: a full chunk goes to one background
// spill writer thread, which appends it to the thread's spill file, and the
// thread carries on in the next chunk, waiting only while that one is still
// being written.  In memory mode the buffer is one chunk: once it is full,
// further events are counted and dropped (the first records are kept).  At
// program end stop() drains and joins the spill writer, and the archive
// writer (otf2_archive.hpp) reads every thread's records, spilled then
// buffered, in recording order.
//
// Buffers are indexed by the measurement's thread id: a thread state that
// is recycled for a new OS thread (core/measurement.hpp) carries on with
// the same buffer, and two OS threads never use one id at once.
#pragma once

#include <algorithm>
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
    BarrierLeave,  // value: the task this thread carries on with (a scheduling point)
    Fork,          // value: threads requested (0: unknown)
    Join,
    TeamBegin,     // value: the thread that forked the team
    TeamEnd,
    TaskCreate,    // value: the new task's handle (an Enter of the create region)
    TaskBegin,     // value: the task's handle
    TaskEnd,
    SchedulingLeave,  // Leave of a scheduling point; value: the task this thread carries on with
    Resume,        // the same for a scheduling point whose construct is not measured: no Leave
    LockRequest,   // value: the lock's id (lock_id())
    LockAcquire,   // value: the lock's id
    LockRelease,   // value: the lock's id
};

// One event as the adapter gives it and the writer reads it.
struct TraceEvent {
    std::uint64_t time;   // the measurement clock's ticks
    std::uint64_t value;  // by event (above); tasks: ompp's task handle (0: the implicit task)
    std::uint32_t region;  // model::Region::id (0: none)
    Event event;
};

// The same in the 16 bytes the hot path stores: the clock's low 52 bits (a
// run shorter than 2^52 ticks, 20 days at 2.6 GHz, decodes exactly), a
// task's creating thread + 1 in the 12 bits above (tasks of threads past
// 4094 decode as that thread's), the region (24 bits: regions past 2^24
// decode as 0) and the event, and the value's low 32 bits (a task's count
// modulo 2^32, as OTF2's generation number).
struct Record {
    std::uint64_t stamp;
    std::uint32_t region_event;
    std::uint32_t low;
};
static_assert(sizeof(Record) == 16);

inline constexpr bool carries_task(Event event) {
    return event == Event::TaskCreate || event == Event::TaskBegin || event == Event::BarrierLeave ||
           event == Event::SchedulingLeave || event == Event::Resume;
}

inline Record encode(Event event, std::uint32_t region, std::uint64_t time, std::uint64_t value) {
    constexpr std::uint64_t kTimeMask = (std::uint64_t{1} << 52) - 1;
    std::uint64_t high = 0;
    // ompp's task handles: the creating thread + 1 in bits 40..58, flags above.
    if (carries_task(event) && static_cast<std::int64_t>(value) > 0) {
        high = std::min<std::uint64_t>(value >> 40 & 0x7ffff, 4095);
    }
    const auto low = static_cast<std::uint32_t>(carries_task(event) && high == 0 ? 0 : value);
    const std::uint32_t region_bits = region < (1U << 24) ? region : 0;
    return {(time & kTimeMask) | high << 52, region_bits | static_cast<std::uint32_t>(event) << 24, low};
}

// `origin`: a clock reading at most 2^52 ticks before the record's.
TraceEvent decode(const Record& record, std::uint64_t origin);

// Dense ids for lock addresses (lock events' values): a per-thread cache
// in front of a shared table, so only a thread's first use of a lock locks.
std::uint32_t lock_id(const void* lock);

enum class Mode : std::uint8_t { Flush, Memory };

struct Settings {
    std::size_t buffer_bytes = std::size_t{4} << 20;  // per thread
    Mode mode = Mode::Flush;
    std::string spill_directory = "/tmp";
};

struct SpillChunk;  // recorder.cpp

// One thread's buffer.  Only its owner records into it and moves between
// chunks (under the spill writer's mutex); the spill writer thread writes
// the chunks handed to it; the finaliser reads it once recording has
// stopped and the writer is joined.
struct ThreadBuffer {
    Record* next;
    Record* end;
    Record* begin;  // of the chunk being filled
    std::uint32_t thread;
    std::uint32_t filling = 0;  // that chunk's index in `chunks`
    std::uint32_t chunk_count = 1;
    SpillChunk* chunks = nullptr;
    std::uint64_t dropped = 0;  // the owner's: memory mode's records not kept, records after stop()
    // The spill writer's:
    int spill_fd = -1;
    std::uint64_t spilled = 0;  // records in the spill file
    std::uint64_t lost = 0;     // records a failed spill write lost
    bool spill_failed = false;
};

inline constexpr std::uint32_t kMaxTracedThreads = 4096;

extern std::atomic<bool> g_recording;
extern std::atomic<ThreadBuffer*> g_buffers[kMaxTracedThreads];

inline bool recording() { return g_recording.load(std::memory_order_relaxed); }

// The slow path: the thread's first record, or a full chunk.  Null: drop.
ThreadBuffer* make_room(std::uint32_t thread);

// The record if the thread's chunk has room for it, without a call: false,
// having stored nothing, if the thread has no buffer yet or its chunk is
// full (then record(), which makes room).
inline bool try_record(std::uint32_t thread, Event event, std::uint32_t region, std::uint64_t time,
                       std::uint64_t value = 0) {
    ThreadBuffer* buffer = thread < kMaxTracedThreads ? g_buffers[thread].load(std::memory_order_relaxed) : nullptr;
    if (buffer == nullptr || buffer->next == buffer->end) [[unlikely]] return false;
    *buffer->next++ = encode(event, region, time, value);
    return true;
}

inline void record(std::uint32_t thread, Event event, std::uint32_t region, std::uint64_t time,
                   std::uint64_t value = 0) {
    ThreadBuffer* buffer = thread < kMaxTracedThreads ? g_buffers[thread].load(std::memory_order_relaxed) : nullptr;
    if (buffer == nullptr || buffer->next == buffer->end) [[unlikely]] {
        buffer = make_room(thread);
        if (buffer == nullptr) return;
    }
    *buffer->next++ = encode(event, region, time, value);
}

// Starts recording with `settings` (the adapter calls it before the first
// event when OMPP_TRACE is set).
void start(const Settings& settings);
// Stops recording: events from now on are not recorded, chunks are not
// spilled any more, and those already handed over are written before it
// returns (the spill writer thread is joined).  Returns false if recording
// was never started.
bool stop();

struct Totals {
    std::uint64_t records = 0;
    std::uint64_t dropped = 0;
    std::uint32_t threads = 0;
    std::uint32_t untraced_threads = 0;  // ids past kMaxTracedThreads
    bool spill_failed = false;           // a spill file could not be written: records lost
    Mode mode = Mode::Flush;             // the recording's: why events were dropped
};
Totals totals();

// After stop(): the ids of the threads that recorded, ascending, and one
// thread's events in recording order (the spill file's, then the
// buffer's), decoded against `origin` (the measurement's start).
std::vector<std::uint32_t> traced_threads();
void read_events(std::uint32_t thread, std::uint64_t origin, const std::function<void(const TraceEvent&)>& visit);

// Tests: forget every buffer (after stop()).
void reset_for_testing();

}  // namespace ompp::trace
