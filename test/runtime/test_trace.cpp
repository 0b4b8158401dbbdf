// The trace recorder (runtime/trace/recorder.hpp): per-thread buffers, the
// spill file of flush mode, the first records kept by memory mode.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "trace/recorder.hpp"

using namespace ompp;

namespace {

std::vector<trace::Record> records_of(std::uint32_t thread) {
    std::vector<trace::Record> all;
    trace::read_records(thread, [&](std::span<const trace::Record> chunk) {
        all.insert(all.end(), chunk.begin(), chunk.end());
    });
    return all;
}

void record_times(std::uint32_t thread, std::uint64_t count) {
    for (std::uint64_t time = 1; time <= count; ++time) {
        trace::record(thread, trace::Event::Enter, 7, time, time * 10);
    }
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
    trace::Settings settings;
    settings.buffer_bytes = 2 * sizeof(trace::Record);
    settings.mode = trace::Mode::Flush;
    const Recording recording(settings);
    record_times(3, 7);
    record_times(5, 1);
    trace::stop();
    CHECK(trace::traced_threads() == std::vector<std::uint32_t>{3, 5});
    const auto records = records_of(3);
    REQUIRE(records.size() == 7);
    for (std::size_t i = 0; i < records.size(); ++i) {
        CHECK(records[i].time == i + 1);
        CHECK(records[i].value == (i + 1) * 10);
        CHECK(records[i].region == 7);
    }
    const trace::Totals totals = trace::totals();
    CHECK(totals.records == 8);
    CHECK(totals.dropped == 0);
    CHECK(totals.threads == 2);
}

TEST_CASE("trace: memory mode keeps the first records and counts the rest", "[trace]") {
    trace::Settings settings;
    settings.buffer_bytes = 3 * sizeof(trace::Record);
    settings.mode = trace::Mode::Memory;
    const Recording recording(settings);
    record_times(0, 10);
    trace::stop();
    const auto records = records_of(0);
    REQUIRE(records.size() == 3);
    CHECK(records.front().time == 1);
    CHECK(records.back().time == 3);
    CHECK(trace::totals().dropped == 7);
}

TEST_CASE("trace: after stop, a full buffer is not spilled", "[trace]") {
    trace::Settings settings;
    settings.buffer_bytes = 2 * sizeof(trace::Record);
    const Recording recording(settings);
    record_times(1, 2);
    trace::stop();
    // A late event of a thread that passed the check before recording stopped.
    trace::record(1, trace::Event::Leave, 7, 99);
    CHECK(records_of(1).size() == 2);
    CHECK(trace::totals().dropped == 1);
}
