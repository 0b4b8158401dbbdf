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
    trace::read_events(thread, kOrigin, [&](const trace::TraceEvent& event) { all.push_back(event); });
    return all;
}

void record_times(std::uint32_t thread, std::uint64_t count) {
    for (std::uint64_t time = 1; time <= count; ++time) {
        trace::record(thread, trace::Event::Enter, 7, kOrigin + time, time * 10);
    }
}

trace::Settings buffer_of(std::size_t records, trace::Mode mode) {
    trace::Settings settings;
    settings.buffer_bytes = records * sizeof(trace::Record);
    settings.mode = mode;
    return settings;
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
    const Recording recording(buffer_of(3, trace::Mode::Memory));
    record_times(0, 10);
    trace::stop();
    const auto records = records_of(0);
    REQUIRE(records.size() == 3);
    CHECK(records.front().time == kOrigin + 1);
    CHECK(records.back().time == kOrigin + 3);
    CHECK(trace::totals().dropped == 7);
}

TEST_CASE("trace: after stop, a full buffer is not spilled", "[trace]") {
    const Recording recording(buffer_of(2, trace::Mode::Flush));
    record_times(1, 2);
    trace::stop();
    // A late event of a thread that passed the check before recording stopped.
    trace::record(1, trace::Event::Leave, 7, kOrigin + 99);
    CHECK(records_of(1).size() == 2);
    CHECK(trace::totals().dropped == 1);
}

TEST_CASE("trace: a 16-byte record decodes to the event recorded", "[trace]") {
    const std::uint64_t origin = (std::uint64_t{1} << 52) - 5;  // the clock's low bits wrap during the run
    const std::uint64_t task = (std::uint64_t{3} + 1) << 40 | 123456789;  // thread 3's task 123456789
    const trace::TraceEvent begin =
        trace::decode(trace::encode(trace::Event::TaskBegin, 42, origin + 10, task), origin);
    CHECK(begin.time == origin + 10);
    CHECK(begin.value == task);
    CHECK(begin.region == 42);
    CHECK(begin.event == trace::Event::TaskBegin);
    // The implicit task (0) and unmeasured tasks (negative) both decode as 0.
    CHECK(trace::decode(trace::encode(trace::Event::SchedulingLeave, 1, origin, 0), origin).value == 0);
    CHECK(trace::decode(trace::encode(trace::Event::Resume, 1, origin, static_cast<std::uint64_t>(-4)), origin).value ==
          0);
    CHECK(trace::decode(trace::encode(trace::Event::Fork, 1, origin, 8), origin).value == 8);
}
