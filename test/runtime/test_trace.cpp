// The trace recorder (runtime/trace/recorder.hpp): per-thread buffers, the
// spill file of flush mode, the first records kept by memory mode.
#include <catch2/catch.hpp>

#include <cstdint>
#include <thread>
#include <vector>

#include "trace/recorder.hpp"

using namespace ompp;

namespace {

constexpr std::uint64_t kOrigin = 1000;

std::vector<trace::TraceEvent> records_of(std::uint32_t thread) {
    std::vector<trace::TraceEvent> all;
    trace::read_events(thread, [&](const trace::TraceEvent& event) { all.push_back(event); });
    return all;
}

// Records of two words (an event with a value), after the thread's first
// record's epoch word.
void record_times(std::uint32_t thread, std::uint64_t count) {
    for (std::uint64_t time = 1; time <= count; ++time) {
        trace::record(thread, trace::Event::Fork, 7, kOrigin + time, time * 10);
    }
}

trace::Settings buffer_of_words(std::size_t words, trace::Mode mode) {
    trace::Settings settings;
    settings.buffer_bytes = words * sizeof(trace::Word);
    settings.mode = mode;
    return settings;
}

trace::Settings buffer_of(std::size_t records, trace::Mode mode) { return buffer_of_words(2 * records, mode); }

// The words the thread's chunk holds.
std::ptrdiff_t words_of(std::uint32_t thread) {
    const trace::ThreadBuffer* buffer = trace::g_buffers[thread].load();
    return buffer->next - buffer->begin;
}

// Recording with `settings` for the test's scope.
struct Recording {
    explicit Recording(trace::Settings settings) { trace::start(settings); }
    ~Recording() {
        trace::stop();
        trace::reset_for_testing();
    }
};

}  // namespace

TEST_CASE("trace: nothing is recorded while tracing is off", "[trace]") {
    trace::reset_for_testing();
    CHECK_FALSE(trace::recording());
    if (trace::recording()) trace::record(0, trace::Event::Enter, 1, 1);
    CHECK(trace::traced_threads().empty());
}

TEST_CASE("trace: flush mode spills full buffers and loses nothing, in order", "[trace]") {
    const Recording recording(buffer_of(2, trace::Mode::Flush));
    record_times(3, 7);
    record_times(5, 1);
    trace::stop();
    CHECK(trace::traced_threads() == std::vector<std::uint32_t>{3, 5});
    const auto records = records_of(3);
    REQUIRE(records.size() == 7);
    for (std::size_t i = 0; i < records.size(); ++i) {
        CHECK(records[i].time == kOrigin + i + 1);
        CHECK(records[i].value == (i + 1) * 10);
        CHECK(records[i].region == 7);
    }
    const trace::Totals totals = trace::totals();
    CHECK(totals.records == 8);
    CHECK(totals.dropped == 0);
    CHECK(totals.threads == 2);
}

TEST_CASE("trace: chunks handed to the spill writer by several threads come back complete, in order", "[trace]") {
    // Four chunks of two records per thread: a hand-over every other record,
    // and the threads often wait for their next chunk to be written.
    const Recording recording(buffer_of(8, trace::Mode::Flush));
    constexpr std::uint64_t kRecords = 5001;
    const std::vector<std::uint32_t> ids{0, 1, 2};
    std::vector<std::thread> threads;
    for (const std::uint32_t id : ids) threads.emplace_back(record_times, id, kRecords);
    for (auto& thread : threads) thread.join();
    trace::stop();
    CHECK(trace::traced_threads() == ids);
    for (const std::uint32_t id : ids) {
        const auto records = records_of(id);
        REQUIRE(records.size() == kRecords);
        std::uint64_t out_of_order = 0;
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (records[i].time != kOrigin + i + 1 || records[i].value != (i + 1) * 10) ++out_of_order;
        }
        CHECK(out_of_order == 0);
    }
    const trace::Totals totals = trace::totals();
    CHECK(totals.records == ids.size() * kRecords);
    CHECK(totals.dropped == 0);
    CHECK_FALSE(totals.spill_failed);
}

TEST_CASE("trace: stop() returns once every chunk handed over is in the spill file", "[trace]") {
    // Chunks of 4 MiB: the writer is still writing when the last record is
    // stored, so the records come back only if stop() waits for it.
    constexpr std::size_t kChunkRecords = std::size_t{1} << 18;
    const Recording recording(buffer_of(4 * kChunkRecords, trace::Mode::Flush));
    record_times(4, 3 * kChunkRecords + 1);
    trace::stop();
    const trace::Totals totals = trace::totals();
    CHECK(totals.records == 3 * kChunkRecords + 1);
    CHECK(totals.dropped == 0);
    const auto records = records_of(4);
    REQUIRE(records.size() == 3 * kChunkRecords + 1);
    CHECK(records[kChunkRecords].time == kOrigin + kChunkRecords + 1);
    CHECK(records.back().time == kOrigin + 3 * kChunkRecords + 1);
}

TEST_CASE("trace: recording restarts after stop with a new spill writer", "[trace]") {
    for (int round = 0; round < 2; ++round) {
        const Recording recording(buffer_of(4, trace::Mode::Flush));
        record_times(2, 9);
        trace::stop();
        const auto records = records_of(2);
        REQUIRE(records.size() == 9);
        CHECK(records.back().time == kOrigin + 9);
    }
}

TEST_CASE("trace: memory mode keeps the first records and counts the rest", "[trace]") {
    // The epoch word and three records.
    const Recording recording(buffer_of_words(7, trace::Mode::Memory));
    record_times(0, 10);
    trace::stop();
    const auto records = records_of(0);
    REQUIRE(records.size() == 3);
    CHECK(records.front().time == kOrigin + 1);
    CHECK(records.back().time == kOrigin + 3);
    CHECK(trace::totals().dropped == 7);
}

TEST_CASE("trace: after stop, a full buffer is not spilled", "[trace]") {
    // One chunk: the epoch word and the record fill it.
    const Recording recording(buffer_of_words(3, trace::Mode::Flush));
    record_times(1, 1);
    trace::stop();
    // A late event of a thread that passed the check before recording stopped.
    trace::record(1, trace::Event::Leave, 7, kOrigin + 99);
    CHECK(records_of(1).size() == 1);
    CHECK(trace::totals().dropped == 1);
}

TEST_CASE("trace: an event takes a word, two with a value, and a new epoch of the clock one more", "[trace]") {
    const Recording recording(buffer_of_words(64, trace::Mode::Memory));
    const std::uint64_t start = (std::uint64_t{5} << trace::kTimeBits) - 2;  // two ticks before an epoch ends
    trace::record(2, trace::Event::Enter, 9, start);
    CHECK(words_of(2) == 2);  // the epoch word first
    trace::record(2, trace::Event::Leave, 9, start + 1);
    CHECK(words_of(2) == 3);
    trace::record(2, trace::Event::TaskBegin, 4, start + 1, (std::uint64_t{3} + 1) << 40 | 17);
    CHECK(words_of(2) == 5);
    trace::record(2, trace::Event::TaskEnd, 4, start + 2);  // the next epoch: its word first
    CHECK(words_of(2) == 7);
}

TEST_CASE("trace: each chunk begins with an epoch word", "[trace]") {
    // Two chunks of four words.
    const Recording recording(buffer_of_words(8, trace::Mode::Flush));
    trace::record(3, trace::Event::Enter, 9, kOrigin);
    trace::record(3, trace::Event::Leave, 9, kOrigin + 1);
    CHECK(words_of(3) == 3);
    trace::record(3, trace::Event::Enter, 9, kOrigin + 2);  // in the next chunk, after its epoch word
    CHECK(words_of(3) == 2);
    trace::stop();
    CHECK(records_of(3).back().time == kOrigin + 2);
}

TEST_CASE("trace: records decode to the events recorded, across the clock's epochs", "[trace]") {
    const Recording recording(buffer_of_words(64, trace::Mode::Memory));
    const std::uint64_t epoch = std::uint64_t{1} << trace::kTimeBits;
    const std::uint64_t task = (std::uint64_t{3} + 1) << 40 | (std::uint64_t{1} << 35 | 123456789);
    const std::vector<trace::TraceEvent> recorded{
        {7 * epoch - 1, task, 42, trace::Event::TaskBegin},
        {7 * epoch, 0, 42, trace::Event::TaskEnd},
        {7 * epoch - 3, 8, 1, trace::Event::Fork},  // a clock a few ticks behind, across the epoch's start
        {(std::uint64_t{1} << 63) + 5, 0, (1U << trace::kRegionBits) - 1, trace::Event::Leave},
        {(std::uint64_t{1} << 63) + 6, 3, 2, trace::Event::LockRelease},
    };
    for (const trace::TraceEvent& e : recorded) trace::record(6, e.event, e.region, e.time, e.value);
    // A region past the record's 24 bits records as none.
    trace::record(6, trace::Event::Enter, 1U << trace::kRegionBits | 5, (std::uint64_t{1} << 63) + 7);
    trace::stop();
    auto expected = recorded;
    expected.push_back({(std::uint64_t{1} << 63) + 7, 0, 0, trace::Event::Enter});
    CHECK(records_of(6) == expected);
}

TEST_CASE("trace: task values decode as ompp's task handles without their flags", "[trace]") {
    const Recording recording(buffer_of_words(64, trace::Mode::Memory));
    const std::uint64_t task = (std::uint64_t{3} + 1) << 40 | 123456789;  // thread 3's task 123456789
    constexpr std::uint64_t kUntimedFlag = std::uint64_t{1} << 62;
    trace::record(0, trace::Event::TaskCreate, 1, kOrigin, task | kUntimedFlag);
    // The implicit task (0), unmeasured tasks (negative) and handles without
    // a creating thread all decode as 0.
    trace::record(0, trace::Event::SchedulingLeave, 1, kOrigin, 0);
    trace::record(0, trace::Event::Resume, 1, kOrigin, static_cast<std::uint64_t>(-4));
    trace::record(0, trace::Event::BarrierLeave, 1, kOrigin, kUntimedFlag | 5);
    // Other values are kept whole.
    trace::record(0, trace::Event::LockAcquire, 1, kOrigin, std::uint64_t{1} << 63 | 3);
    trace::stop();
    const auto records = records_of(0);
    REQUIRE(records.size() == 5);
    CHECK(records[0].value == task);
    CHECK(records[1].value == 0);
    CHECK(records[2].value == 0);
    CHECK(records[3].value == 0);
    CHECK(records[4].value == (std::uint64_t{1} << 63 | 3));
}
