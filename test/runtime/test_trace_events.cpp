// OMPP_TRACE through the POMP2 API: every event of every construct family
// is recorded, with its region, time and value (docs/tracing.md, "The
// events"), whichever of the adapter's paths it takes.  The program runs
// twice: the first round registers regions and attaches the thread (the
// general paths), the second takes every event's common case.
#include <catch2/catch.hpp>

#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "adapter/lifecycle.hpp"
#include "event_stream.hpp"
#include "trace/recorder.hpp"

using namespace ompp;
using E = trace::Event;

namespace {

#define CTC(body) (std::to_string(std::string(body).size()) + std::string(body)).c_str()

// A region's descriptor kept for several calls (CTC's lives for one).
std::string ctc(const std::string& body) { return std::to_string(body.size()) + body; }

std::uint32_t region_id(POMP2_Region_handle handle) {
    return handle != nullptr ? static_cast<const core::RegionRecord*>(handle)->info.id : 0;
}

std::string described(E event, std::uint32_t region, core::Ticks time, std::optional<std::uint64_t> value) {
    return fmt::format("event {} region {} at {}{}", static_cast<int>(event), region, time,
                       value ? fmt::format(" value {:#x}", *value) : std::string{});
}

// The events a program should record, each as the clock's time of its call.
class Expected {
public:
    explicit Expected(test::ManualClock& clock) : clock_(clock) {}
    // The next call happens at a new time.
    void tick() { clock_.at(now_ += 10); }
    // `handle` is read when the events are compared: the call registers it.
    void add(E event, POMP2_Region_handle* handle, std::optional<std::uint64_t> value = std::nullopt) {
        events_.push_back({event, handle, now_, value});
    }
    // `call` at a new time, which records `event` on `handle`, with the
    // value `*value` has after the call unless it is null.
    template <typename Call>
    void step(Call call, E event, POMP2_Region_handle* handle, const POMP2_Task_handle* value = nullptr) {
        tick();
        call();
        add(event, handle, value != nullptr ? std::optional<std::uint64_t>(*value) : std::nullopt);
    }
    // The recorded events, described as the expected ones are (values left
    // out where none is expected), and the expected ones.
    std::pair<std::vector<std::string>, std::vector<std::string>> compared(
        const std::vector<trace::TraceEvent>& recorded) const {
        std::vector<std::string> got, want;
        for (std::size_t i = 0; i < recorded.size(); ++i) {
            const bool valued = i < events_.size() && events_[i].value.has_value();
            const auto& r = recorded[i];
            got.push_back(described(r.event, r.region, r.time, valued ? std::optional(r.value) : std::nullopt));
        }
        for (const auto& e : events_) want.push_back(described(e.event, region_id(*e.handle), e.time, e.value));
        return {got, want};
    }

private:
    struct Event {
        E event;
        POMP2_Region_handle* handle;
        core::Ticks time;
        std::optional<std::uint64_t> value;
    };
    test::ManualClock& clock_;
    core::Ticks now_ = 1000;
    std::vector<Event> events_;
};

// A new measurement on `clock`, recording a trace in `mode` with a buffer
// of `buffer_bytes` per thread.
core::Measurement& start_tracing(test::ManualClock& clock, const char* mode, const char* buffer_bytes) {
    std::vector<std::string> diagnostics;
    const auto config = config::Config::load(diagnostics, [=](const char* name) -> const char* {
        const std::string option = name;
        if (option == "OMPP_TRACE") return "1";
        if (option == "OMPP_TRACE_MODE") return mode;
        if (option == "OMPP_TRACE_BUFFER") return buffer_bytes;
        return nullptr;
    });
    REQUIRE(diagnostics.empty());
    core::Measurement& m = adapter::restart_for_testing(clock.clock(), config);
    REQUIRE(trace::recording());
    return m;
}

}  // namespace

TEST_CASE("trace: every construct family's events are recorded, first time or common case", "[trace][adapter]") {
    test::ManualClock clock;
    start_tracing(clock, "memory", "1048576");

    static POMP2_Region_handle par, user, atomic, counted, crit, loop, single, master, sections, ordered, barrier,
        task, taskwait, taskgroup, taskyield, taskloop, fused, fused_loop;
    Expected expected(clock);
    for (int round = 0; round < 2; ++round) {
        POMP2_Task_handle old_task, at;
        using Calls = std::initializer_list<std::pair<std::function<void()>, E>>;
        const auto on = [&](POMP2_Region_handle* handle, Calls calls) {
            for (const auto& [call, event] : calls) expected.step(call, event, handle);
        };
        expected.step(
            [&] {
                POMP2_Parallel_fork(&par, 1, 1, &old_task, CTC("*regionType=parallel*sscl=t.c:1:1*escl=t.c:99:99**"));
            },
            E::Fork, &par);
        expected.step([&] { POMP2_Parallel_begin(&par); }, E::TeamBegin, &par);
        on(&user, {{[&] {
                        POMP2_Begin(&user, CTC("*regionType=userRegion*sscl=t.c:2:2*escl=t.c:3:3*userRegionName=u**"));
                    },
                    E::Enter},
                   {[&] { POMP2_End(&user); }, E::Leave}});
        on(&atomic, {{[&] { POMP2_Atomic_enter(&atomic, CTC("*regionType=atomic*sscl=t.c:4:4*escl=t.c:5:5**")); },
                      E::Enter},
                     {[&] { POMP2_Atomic_exit(&atomic); }, E::Leave}});
        // Counted without a clock untraced; traced, an enter and a leave at one time.
        expected.step([&] { POMP2_Atomic_count(&counted, CTC("*regionType=atomic*sscl=t.c:6:6*escl=t.c:6:6**")); },
                      E::Enter, &counted);
        expected.add(E::Leave, &counted);
        on(&crit, {{[&] { POMP2_Critical_enter(&crit, CTC("*regionType=critical*sscl=t.c:7:7*escl=t.c:9:9**")); },
                    E::Enter},
                   {[&] { POMP2_Critical_begin(&crit); }, E::BodyBegin},
                   {[&] { POMP2_Critical_end(&crit); }, E::BodyEnd},
                   {[&] { POMP2_Critical_exit(&crit); }, E::Leave}});
        expected.step([&] { POMP2_For_enter(&loop, CTC("*regionType=for*sscl=t.c:10:10*escl=t.c:12:12**")); }, E::Enter,
                      &loop);
        expected.step([&] { POMP2_Implicit_barrier_enter(&loop, &at); }, E::BarrierEnter, &loop);
        expected.step([&] { POMP2_Implicit_barrier_exit(&loop, at); }, E::BarrierLeave, &loop, &at);
        expected.step([&] { POMP2_For_exit(&loop); }, E::Leave, &loop);
        on(&single, {{[&] { POMP2_Single_enter(&single, CTC("*regionType=single*sscl=t.c:13:13*escl=t.c:15:15**")); },
                      E::Enter},
                     {[&] { POMP2_Single_begin(&single); }, E::BodyBegin},
                     {[&] { POMP2_Single_end(&single); }, E::BodyEnd},
                     {[&] { POMP2_Single_exit(&single); }, E::Leave}});
        on(&master, {{[&] { POMP2_Master_begin(&master, CTC("*regionType=master*sscl=t.c:16:16*escl=t.c:17:17**")); },
                      E::Enter},
                     {[&] { POMP2_Master_end(&master); }, E::Leave}});
        const std::string sections_ctc = ctc("*regionType=sections*sscl=t.c:18:18*escl=t.c:22:22*numSections=1**");
        on(&sections, {{[&] { POMP2_Sections_enter(&sections, sections_ctc.c_str()); }, E::Enter},
                       {[&] { POMP2_Section_begin(&sections, sections_ctc.c_str()); }, E::BodyBegin},
                       {[&] { POMP2_Section_end(&sections); }, E::BodyEnd},
                       {[&] { POMP2_Sections_exit(&sections); }, E::Leave}});
        on(&ordered, {{[&] {
                           POMP2_Ordered_enter(&ordered, CTC("*regionType=ordered*sscl=t.c:23:23*escl=t.c:24:24**"));
                       },
                       E::Enter},
                      {[&] { POMP2_Ordered_begin(&ordered); }, E::BodyBegin},
                      {[&] { POMP2_Ordered_end(&ordered); }, E::BodyEnd},
                      {[&] { POMP2_Ordered_exit(&ordered); }, E::Leave}});
        expected.step(
            [&] { POMP2_Barrier_enter(&barrier, &at, CTC("*regionType=barrier*sscl=t.c:25:25*escl=t.c:25:25**")); },
            E::Enter, &barrier);
        expected.step([&] { POMP2_Barrier_exit(&barrier, at); }, E::SchedulingLeave, &barrier, &at);

        // A deferred task, then one whose if clause ompp's output passes:
        // traced, both are measured (OPARI2's meaning).
        const std::string task_ctc = ctc("*regionType=task*sscl=t.c:26:26*escl=t.c:28:28**");
        for (const bool passes_if : {false, true}) {
            POMP2_Task_handle new_task, creator;
            expected.step(
                [&] {
                    if (passes_if) {
                        POMP2_Task_create_begin_final(&task, &new_task, &creator, 0, 0, task_ctc.c_str());
                    } else {
                        POMP2_Task_create_begin(&task, &new_task, &creator, 1, task_ctc.c_str());
                    }
                },
                E::TaskCreate, &task, &new_task);
            CHECK(new_task != POMP2_UNTIMED_TASK);
            expected.step([&] { POMP2_Task_begin(&task, new_task); }, E::TaskBegin, &task, &new_task);
            expected.step([&] { POMP2_Task_end(&task); }, E::TaskEnd, &task);
            expected.step([&] { POMP2_Task_create_end(&task, creator); }, E::SchedulingLeave, &task, &creator);
        }
        // Nothing to wait for: counted without a clock untraced, measured traced.
        expected.step(
            [&] { POMP2_Taskwait_begin(&taskwait, &at, CTC("*regionType=taskwait*sscl=t.c:29:29*escl=t.c:29:29**")); },
            E::Enter, &taskwait);
        expected.step([&] { POMP2_Taskwait_end(&taskwait, at); }, E::SchedulingLeave, &taskwait, &at);
        expected.step(
            [&] {
                POMP2_Taskgroup_enter(&taskgroup, &at, CTC("*regionType=taskgroup*sscl=t.c:30:30*escl=t.c:31:31**"));
            },
            E::Enter, &taskgroup);
        expected.step([&] { POMP2_Taskgroup_begin(&taskgroup); }, E::BodyBegin, &taskgroup);
        expected.step([&] { POMP2_Taskgroup_end(&taskgroup); }, E::BodyEnd, &taskgroup);
        expected.step([&] { POMP2_Taskgroup_exit(&taskgroup, at); }, E::SchedulingLeave, &taskgroup, &at);
        expected.step(
            [&] {
                POMP2_Taskyield_begin(&taskyield, &at, CTC("*regionType=taskyield*sscl=t.c:32:32*escl=t.c:32:32**"));
            },
            E::Enter, &taskyield);
        expected.step([&] { POMP2_Taskyield_end(&taskyield, at); }, E::SchedulingLeave, &taskyield, &at);
        expected.step(
            [&] { POMP2_Taskloop_enter(&taskloop, &at, CTC("*regionType=taskloop*sscl=t.c:33:33*escl=t.c:35:35**")); },
            E::Enter, &taskloop);
        const POMP2_Task_handle loop_task = POMP2_Get_new_task_handle();
        expected.step([&] { POMP2_Taskloop_task_begin(&taskloop, loop_task); }, E::TaskBegin, &taskloop, &loop_task);
        expected.step([&] { POMP2_Taskloop_task_end(&taskloop); }, E::TaskEnd, &taskloop);
        expected.step([&] { POMP2_Taskloop_exit(&taskloop, at); }, E::SchedulingLeave, &taskloop, &at);

        expected.step([&] { POMP2_Implicit_barrier_enter(&par, &at); }, E::BarrierEnter, &par);
        expected.step([&] { POMP2_Implicit_barrier_exit(&par, at); }, E::BarrierLeave, &par, &at);
        expected.step([&] { POMP2_Parallel_end(&par); }, E::TeamEnd, &par);
        expected.step([&] { POMP2_Parallel_join(&par, old_task); }, E::Join, &par);

        // A combined construct's fused calls: both events of each.
        expected.step(
            [&] {
                POMP2_Parallel_fork(&fused, 1, 1, &old_task,
                                    CTC("*regionType=parallelfor*sscl=t.c:40:40*escl=t.c:45:45**"));
            },
            E::Fork, &fused);
        expected.step(
            [&] {
                POMP2_Parallel_begin_for_enter(&fused, &fused_loop,
                                               CTC("*regionType=for*sscl=t.c:40:40*escl=t.c:45:45**"));
            },
            E::TeamBegin, &fused);
        expected.add(E::Enter, &fused_loop);
        expected.step([&] { POMP2_For_exit_parallel_end(&fused_loop, &fused); }, E::Leave, &fused_loop);
        expected.add(E::TeamEnd, &fused);
        expected.step([&] { POMP2_Parallel_join(&fused, old_task); }, E::Join, &fused);
    }

    trace::stop();
    const std::vector<std::uint32_t> threads = trace::traced_threads();
    REQUIRE(threads.size() == 1);
    std::vector<trace::TraceEvent> recorded;
    trace::read_events(threads[0], [&](const trace::TraceEvent& event) { recorded.push_back(event); });
    trace::reset_for_testing();
    const auto [got, want] = expected.compared(recorded);
    CHECK(got == want);
}

// The traced forms of the task events record into the buffer the thread's
// state keeps (adapter/tracing.hpp) and run again with the slow record when
// it needs one: with chunks of 16 words, every few records the chunk is
// full and handed to the spill writer, and the records still come back
// complete and in order, each with its value.
TEST_CASE("trace: task events across chunk hand-overs, through the buffer the thread keeps", "[trace][adapter]") {
    test::ManualClock clock;
    core::Measurement& m = start_tracing(clock, "flush", "512");  // four chunks of 16 words

    static POMP2_Region_handle task, taskwait;
    const std::string task_ctc = ctc("*regionType=task*sscl=t.c:1:1*escl=t.c:3:3**");
    const std::string taskwait_ctc = ctc("*regionType=taskwait*sscl=t.c:2:2*escl=t.c:2:2**");
    Expected expected(clock);
    constexpr int kTasks = 40;  // 6 events, 10 words each: 25 chunks
    for (int i = 0; i < kTasks; ++i) {
        POMP2_Task_handle new_task, creator, waiting;
        expected.step(
            [&] {
                POMP2_Task_create_begin_slot(&task, &new_task, &creator, 1, 0, task_ctc.c_str(), 0);
            },
            E::TaskCreate, &task, &new_task);
        expected.step([&] { POMP2_Task_create_end(&task, creator); }, E::SchedulingLeave, &task, &creator);
        expected.step([&] { POMP2_Task_begin(&task, new_task); }, E::TaskBegin, &task, &new_task);
        expected.step([&] { POMP2_Taskwait_begin_slot(&taskwait, &waiting, taskwait_ctc.c_str(), 1); }, E::Enter,
                      &taskwait);
        expected.step([&] { POMP2_Taskwait_end(&taskwait, waiting); }, E::SchedulingLeave, &taskwait, &waiting);
        expected.step([&] { POMP2_Task_end(&task); }, E::TaskEnd, &task);
    }

    core::ThreadState& thread = m.this_thread();
    const trace::ThreadBuffer* buffer = trace::buffer_of(thread.id());
    REQUIRE(buffer != nullptr);
    CHECK(thread.trace_buffer() == buffer);
    trace::stop();
    CHECK(buffer->spilled > 0);
    std::vector<trace::TraceEvent> recorded;
    trace::read_events(thread.id(), [&](const trace::TraceEvent& event) { recorded.push_back(event); });
    const trace::Totals totals = trace::totals();
    trace::reset_for_testing();
    CHECK(totals.dropped == 0);
    const auto [got, want] = expected.compared(recorded);
    CHECK(got == want);
}
