// recorder.hpp - OMPP_TRACE: every POMP2 event as a compact binary record in
// a per-thread buffer, beside the profile.
//
// The hot path (record()) is one relaxed load and a well-predicted branch
// when tracing is off; when on, a store of one 8-byte word (two for an
// event that carries a value) into the calling thread's buffer, without
// locks or allocation once the thread's buffer exists (its first event
// allocates it).  In flush mode (nothing is lost) the buffer is a ring of
// chunks: a full chunk goes to one background spill writer thread, which
// appends it to the thread's spill file, and the thread carries on in the
// next chunk, waiting only while that one is still being written.  In
// memory mode the buffer is one chunk: once it is full, further events are
// counted and dropped (the first records are kept).  At program end stop()
// drains and joins the spill writer, and the archive writer
// (otf2_archive.hpp) reads every thread's records, spilled then buffered,
// in recording order.
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
#include <utility>
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

    friend bool operator==(const TraceEvent&, const TraceEvent&) = default;
};

// A record in memory: one word — the event (5 bits), the region (24 bits:
// regions from 2^24 on record as 0, by the slow path) and the clock's low
// 35 bits — then, for the events that carry a value, the value whole in a
// second word.  The clock's high bits are the chunk's epoch: a record whose
// time has other high bits than the epoch's goes the slow way
// (record_out_of_line()), which first stores an epoch word (kEpochCode,
// the new high bits): once per 2^35 ticks (13 s at 2.6 GHz) and at the
// start of each chunk.  A task of fib without cut-off (its creation and
// the creation's end, its begin and end, half a taskwait's enter and leave)
// takes 68 bytes (80 as the 16-byte records before), a construct's enter
// or leave 8 (16).
using Word = std::uint64_t;

inline constexpr unsigned kEventBits = 5;
inline constexpr unsigned kRegionBits = 24;
inline constexpr unsigned kTimeShift = kEventBits + kRegionBits;
inline constexpr unsigned kTimeBits = 64 - kTimeShift;  // 35
inline constexpr Word kEventMask = (Word{1} << kEventBits) - 1;
inline constexpr Word kEpochCode = kEventMask;  // not an Event
// No time's epoch (ThreadBuffer::epoch before its chunk's first epoch word):
// no clock reaches 2^64 - 2^35 ticks.
inline constexpr std::uint64_t kNoEpoch = ~std::uint64_t{0};
static_assert(static_cast<Word>(Event::LockRelease) < kEpochCode);

// The events whose record carries a value (a second word), as a set of
// bits: one test where the event is not a constant (the general paths'
// records, the decoder).  Those that carry a task are among them.
inline constexpr std::uint32_t event_bit(Event event) { return std::uint32_t{1} << static_cast<unsigned>(event); }
inline constexpr std::uint32_t kTaskEvents = event_bit(Event::TaskCreate) | event_bit(Event::TaskBegin) |
                                             event_bit(Event::BarrierLeave) | event_bit(Event::SchedulingLeave) |
                                             event_bit(Event::Resume);
inline constexpr std::uint32_t kValueEvents = kTaskEvents | event_bit(Event::Fork) | event_bit(Event::TeamBegin) |
                                              event_bit(Event::LockRequest) | event_bit(Event::LockAcquire) |
                                              event_bit(Event::LockRelease);
static_assert(static_cast<unsigned>(Event::LockRelease) < 32);

inline constexpr bool carries_task(Event event) { return (kTaskEvents & event_bit(event)) != 0; }
inline constexpr bool carries_value(Event event) { return (kValueEvents & event_bit(event)) != 0; }

// Regions from this id on record as 0 (none), by the slow path.
inline constexpr std::uint32_t kNoRegion = 1U << kRegionBits;

// Whether `time` is in the epoch of `epoch` (a time of it).
inline bool same_epoch(std::uint64_t time, std::uint64_t epoch) { return ((time ^ epoch) >> kTimeBits) == 0; }

// Stores the record at `at`; returns the word after it.
inline Word* store(Word* at, Event event, std::uint32_t region, std::uint64_t time, std::uint64_t value) {
    at[0] = static_cast<Word>(event) | Word{region} << kEventBits | time << kTimeShift;
    if (!carries_value(event)) return at + 1;
    at[1] = value;
    return at + 2;
}

// Stores the epoch word of `time` at `at`; returns the word after it.
inline Word* store_epoch(Word* at, std::uint64_t time) {
    *at = kEpochCode | time >> kTimeBits << kEventBits;
    return at + 1;
}

// One thread's words back to its events, in recording order: fed in
// pieces (a spill file read in blocks) that may split a record.
template <typename Visit>
class Decoder {
public:
    explicit Decoder(Visit visit) : visit_(std::move(visit)) {}

    void decode(std::span<const Word> words) {
        for (const Word word : words) {
            if (value_pending_) {
                value_pending_ = false;
                event_.value = carries_task(event_.event) ? task_value(word) : word;
                visit_(std::as_const(event_));
            } else if ((word & kEventMask) == kEpochCode) {
                high_ = word >> kEventBits << kTimeBits;
            } else {
                event_.event = static_cast<Event>(word & kEventMask);
                event_.region = static_cast<std::uint32_t>(word >> kEventBits) & ((1U << kRegionBits) - 1);
                event_.time = high_ | word >> kTimeShift;
                event_.value = 0;
                value_pending_ = carries_value(event_.event);
                if (!value_pending_) visit_(std::as_const(event_));
            }
        }
    }

private:
    // ompp's task handles: the creating thread + 1 in bits 40..58, flags
    // above (not traced); the implicit task (0) and unmeasured tasks
    // (negative, or without a creating thread) are 0.
    static std::uint64_t task_value(std::uint64_t handle) {
        if (static_cast<std::int64_t>(handle) <= 0 || (handle >> 40 & 0x7ffff) == 0) return 0;
        return handle & ((std::uint64_t{1} << 59) - 1);
    }

    Visit visit_;
    TraceEvent event_{};
    std::uint64_t high_ = 0;
    bool value_pending_ = false;
};

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
    Word* next;
    Word* end;  // the last word of the chunk being filled: below it, a record of two words fits
    std::uint64_t epoch = kNoEpoch;  // a time in the epoch of the chunk's last epoch word
    Word* begin;  // of the chunk being filled
    std::uint32_t thread;
    std::uint32_t filling = 0;  // that chunk's index in `chunks`
    std::uint32_t chunk_count = 1;
    SpillChunk* chunks = nullptr;
    std::uint64_t dropped = 0;  // the owner's: memory mode's records not kept, records after stop()
    // The spill writer's:
    int spill_fd = -1;
    std::uint64_t spilled = 0;  // words in the spill file
    std::uint64_t lost = 0;     // records a failed spill write lost
    bool spill_failed = false;
};

inline constexpr std::uint32_t kMaxTracedThreads = 4096;

extern std::atomic<bool> g_recording;
extern std::atomic<ThreadBuffer*> g_buffers[kMaxTracedThreads];

inline bool recording() { return g_recording.load(std::memory_order_relaxed); }

// The thread's buffer; null until its first record (and for ids from
// kMaxTracedThreads on).
inline ThreadBuffer* buffer_of(std::uint32_t thread) {
    return thread < kMaxTracedThreads ? g_buffers[thread].load(std::memory_order_relaxed) : nullptr;
}

// The record if the thread's chunk has room for it and its time is in the
// thread's epoch, without a call: false, having stored nothing, if not
// (no buffer yet, its chunk is full, a new epoch, a region past 24 bits:
// then record_slowly()).  `buffer` is the thread's (buffer_of(), or a copy
// of it that the caller keeps where it finds it faster: the adapter keeps
// it in the thread's state), or null.
inline bool try_record(ThreadBuffer* buffer, Event event, std::uint32_t region, std::uint64_t time,
                       std::uint64_t value = 0) {
    if (buffer == nullptr || buffer->next >= buffer->end || !same_epoch(time, buffer->epoch) ||
        region >= kNoRegion) [[unlikely]]
        return false;
    buffer->next = store(buffer->next, event, region, time, value);
    return true;
}

// The slow path of try_record(), out of line, whatever the buffer's state
// (the thread's buffer made, a full chunk handed over or the record
// dropped, the epoch word stored first).  Returns the thread's buffer, for
// the caller to keep (null: the record was dropped, as the next ones may
// be).
ThreadBuffer* record_slowly(std::uint32_t thread, Event event, std::uint32_t region, std::uint64_t time,
                            std::uint64_t value);

// The record, out of line: try_record() on `buffer`, the thread's buffer
// as the caller keeps it, else record_slowly(), which updates `buffer`; a
// call that costs the code around it fewer registers than the inline
// record.  Returns `time`: a caller that needs it after the call keeps
// nothing across it.
std::uint64_t record_out_of_line(ThreadBuffer*& buffer, std::uint32_t thread, Event event, std::uint32_t region,
                                 std::uint64_t time, std::uint64_t value);

inline void record(std::uint32_t thread, Event event, std::uint32_t region, std::uint64_t time,
                   std::uint64_t value = 0) {
    if (!try_record(buffer_of(thread), event, region, time, value)) [[unlikely]]
        record_slowly(thread, event, region, time, value);
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
// buffer's).
std::vector<std::uint32_t> traced_threads();
void read_events(std::uint32_t thread, const std::function<void(const TraceEvent&)>& visit);

// Tests: forget every buffer (after stop()).  Thread states that recorded
// keep a copy of their buffer's address (adapter/tracing.hpp): restart the
// measurement before recording again.
void reset_for_testing();

}  // namespace ompp::trace
