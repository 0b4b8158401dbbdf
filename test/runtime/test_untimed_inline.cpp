// Untimed tasks and taskwaits counted, and deferred tasks' creations closed,
// by the instrumented code itself (POMP2_Task_create_begin_fast,
// POMP2_Taskwait_begin_fast, POMP2_Task_create_end_fast, as ompp-instrument
// writes them): the profile is the one the calls alone give, and the calls
// are left out while libompp's untimed cache holds.
//
// The test binary is linked with --wrap for the three calls the inline forms
// make when they cannot count (CMakeLists.txt), so that it sees how often
// they do.
#include <catch2/catch.hpp>

#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "adapter/lifecycle.hpp"
#include "core/thread_state.hpp"
#include "event_stream.hpp"
#include "writers/json_writer.hpp"

using namespace ompp;

namespace {

long g_calls_made = 0;     // by the inline forms, which could not count
long g_end_calls_made = 0;  // by POMP2_Task_create_end_fast, which could not close the creation

}  // namespace

extern "C" {
void __real_POMP2_Task_create_end(POMP2_Region_handle*, POMP2_Task_handle);
void __wrap_POMP2_Task_create_end(POMP2_Region_handle* h, POMP2_Task_handle old_task) {
    ++g_end_calls_made;
    __real_POMP2_Task_create_end(h, old_task);
}
void __real_POMP2_Task_create_begin_slot(POMP2_Region_handle*, POMP2_Task_handle*, POMP2_Task_handle*, int, int,
                                         const char[], unsigned);
void __real_POMP2_Taskwait_begin_slot(POMP2_Region_handle*, POMP2_Task_handle*, const char[], unsigned);
void __wrap_POMP2_Task_create_begin_slot(POMP2_Region_handle* h, POMP2_Task_handle* new_task,
                                         POMP2_Task_handle* old_task, int pomp2_if, int pomp2_final,
                                         const char ctc[], unsigned slot) {
    ++g_calls_made;
    __real_POMP2_Task_create_begin_slot(h, new_task, old_task, pomp2_if, pomp2_final, ctc, slot);
}
void __wrap_POMP2_Taskwait_begin_slot(POMP2_Region_handle* h, POMP2_Task_handle* old_task, const char ctc[],
                                      unsigned slot) {
    ++g_calls_made;
    __real_POMP2_Taskwait_begin_slot(h, old_task, ctc, slot);
}
}

namespace {

std::string ctc(const std::string& body) { return std::to_string(body.size()) + body; }

const std::string kParallel = ctc("*regionType=parallel*sscl=fib.c:3:3*escl=fib.c:30:30**");
const std::string kSingle = ctc("*regionType=single*sscl=fib.c:4:4*escl=fib.c:29:29**");
const std::string kTaskX = ctc("*regionType=task*sscl=fib.c:10:10*escl=fib.c:11:11*hasIf=1*hasFinal=1**");
const std::string kTaskY = ctc("*regionType=task*sscl=fib.c:12:12*escl=fib.c:13:13*hasIf=1*hasFinal=1**");
const std::string kTaskwait = ctc("*regionType=taskwait*sscl=fib.c:14:14*escl=fib.c:14:14**");
const std::string kAtomic = ctc("*regionType=atomic*sscl=fib.c:15:15*escl=fib.c:15:15*timing=count**");

POMP2_Region_handle g_parallel = nullptr, g_single = nullptr, g_task_x = nullptr, g_task_y = nullptr,
                    g_taskwait = nullptr, g_atomic = nullptr;

// None: no cut-off, every task deferred; but, as libgomp does when many
// tasks are queued, the runtime runs some at once inside their creation
// (found at their begin), and some creations measure something inside
// them (a copy constructor's construct).
enum class Cutoff { If, Final, None };

// BOTS fib with a cut-off at `cutoff_depth`, its events as ompp-instrument
// writes them (with `inline_counts`) or the same calls without the inline
// forms, on one thread: a deferred task runs at its parent's taskwait, an
// undeferred or included one inside its creation.  The clock moves one tick
// per construct, whichever form, so that the two profiles compare whole.
struct Fib {
    bool inline_counts;
    Cutoff cutoff;
    int cutoff_depth;
    test::ManualClock& clock;
    core::Ticks now = 2000;

    void tick() { clock.at(++now); }

    void create(POMP2_Region_handle* task, const std::string& task_ctc, unsigned slot, int pomp2_if,
                int pomp2_final, POMP2_Task_handle& child, POMP2_Task_handle& creator) {
        if (inline_counts) {
            POMP2_Task_create_begin_fast(task, &child, &creator, pomp2_if, pomp2_final, task_ctc.c_str(), slot);
        } else {
            POMP2_Task_create_begin_final(task, &child, &creator, pomp2_if, pomp2_final, task_ctc.c_str());
        }
    }

    long call(int n, int depth) {
        if (n < 2) return n;
        // Something else the program measures, between the untimed visits.
        if (n == 4) {
            tick();
            POMP2_Atomic_count(&g_atomic, kAtomic.c_str());
        }
        long results[2] = {0, 0};
        std::vector<std::function<void()>> deferred;
        POMP2_Region_handle* tasks[2] = {&g_task_x, &g_task_y};
        const std::string* task_ctcs[2] = {&kTaskX, &kTaskY};
        for (int which = 0; which < 2; ++which) {
            const bool below = depth >= cutoff_depth;
            const int pomp2_if = cutoff == Cutoff::If && below ? 0 : 1;
            const int pomp2_final = cutoff == Cutoff::Final && below ? 1 : 0;
            POMP2_Task_handle child = 0, creator = 0;
            tick();
            create(tasks[which], *task_ctcs[which], static_cast<unsigned>(which), pomp2_if, pomp2_final, child,
                   creator);
            const bool runs_at_once = cutoff == Cutoff::None && n == 3 && which == 1;
            if (cutoff == Cutoff::None && n == 6 && which == 1) {
                tick();
                POMP2_Atomic_count(&g_atomic, kAtomic.c_str());
            }
            POMP2_Region_handle* task = tasks[which];
            auto body = [this, task, child, which, n, depth, &results] {
                tick();
                if (child != POMP2_UNTIMED_TASK) POMP2_Task_begin(task, child);
                results[which] = call(n - 1 - which, depth + 1);
                tick();
                if (child != POMP2_UNTIMED_TASK) POMP2_Task_end(task);
            };
            // The runtime runs an undeferred task, and any task created
            // inside a final one, at once; it defers the others here.
            if (child == POMP2_UNTIMED_TASK || pomp2_if == 0 || runs_at_once) {
                body();
            } else {
                deferred.push_back(body);
            }
            tick();
            if (inline_counts) {
                POMP2_Task_create_end_fast(task, creator);
            } else if (!POMP2_UNTIMED_DONE(creator)) {
                POMP2_Task_create_end(task, creator);
            }
        }
        POMP2_Task_handle current = 0;
        tick();
        if (inline_counts) {
            POMP2_Taskwait_begin_fast(&g_taskwait, &current, kTaskwait.c_str(), 2);
        } else {
            POMP2_Taskwait_begin(&g_taskwait, &current, kTaskwait.c_str());
        }
        for (const auto& task : deferred) task();
        tick();
        if (!POMP2_UNTIMED_DONE(current)) POMP2_Taskwait_end(&g_taskwait, current);
        return results[0] + results[1];
    }

    // fib(n) in a single construct of a parallel region of one thread.
    long run(int n) {
        POMP2_Task_handle old_task = 0;
        tick();
        POMP2_Parallel_fork(&g_parallel, 1, 1, &old_task, kParallel.c_str());
        tick();
        POMP2_Parallel_begin(&g_parallel);
        tick();
        POMP2_Single_enter(&g_single, kSingle.c_str());
        POMP2_Single_begin(&g_single);
        const long result = call(n, 0);
        tick();
        POMP2_Single_end(&g_single);
        POMP2_Single_exit(&g_single);
        tick();
        POMP2_Parallel_end(&g_parallel);
        POMP2_Parallel_join(&g_parallel, old_task);
        tick();
        return result;
    }
};

struct Counted {
    nlohmann::json profile;
    long calls_made;
    long end_calls_made;
};

Counted fib_profile(bool inline_counts, Cutoff cutoff) {
    test::ManualClock clock;
    core::Measurement& m = adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    g_calls_made = 0;
    g_end_calls_made = 0;
    Fib fib{inline_counts, cutoff, cutoff == Cutoff::None ? 100 : 2, clock};
    CHECK(fib.run(15) == 610);
    return {writers::to_json(m.build_profile()), g_calls_made, g_end_calls_made};
}

// Visits of the construct at `line` (its creation, for a task), all call paths.
std::uint64_t visits_of(const nlohmann::json& profile, int line) {
    std::uint64_t visits = 0;
    for (const auto& node : profile["nodes"]) {
        if (node["region"].is_null() || node["kind"] != "region") continue;
        for (const auto& region : profile["regions"]) {
            if (region["id"] != node["region"] || region["first_line"] != line) continue;
            for (const auto& thread : node["threads"]) visits += thread["visits"].get<std::uint64_t>();
        }
    }
    return visits;
}

}  // namespace

TEST_CASE("untimed tasks counted inline: the profile of the calls, with few calls", "[tasks][untimed]") {
    for (const Cutoff cutoff : {Cutoff::If, Cutoff::Final}) {
        DYNAMIC_SECTION((cutoff == Cutoff::If ? "if" : "final") << " cut-off") {
            const Counted calls = fib_profile(false, cutoff);
            const Counted counted = fib_profile(true, cutoff);
            CHECK(counted.profile["nodes"] == calls.profile["nodes"]);
            CHECK(counted.profile["tasks"] == calls.profile["tasks"]);
            CHECK(counted.profile["warnings"].empty());
            // fib(15): 1972 creations and 986 taskwaits, all but the few
            // above the cut-off untimed; the inline forms call libompp for
            // the first visits after an event (a deferred task's begin, the
            // atomic, an outermost final task's end) and nothing else.
            const std::uint64_t constructs =
                visits_of(calls.profile, 10) + visits_of(calls.profile, 12) + visits_of(calls.profile, 14);
            CHECK(constructs == 1972 + 986);
            CHECK(counted.calls_made > 0);
            CHECK(counted.calls_made * 4 < static_cast<long>(constructs));
        }
    }
}

TEST_CASE("deferred tasks' creations closed inline: the profile of the calls", "[tasks][untimed]") {
    const Counted calls = fib_profile(false, Cutoff::None);
    const Counted closed = fib_profile(true, Cutoff::None);
    CHECK(closed.profile["nodes"] == calls.profile["nodes"]);
    CHECK(closed.profile["tasks"] == calls.profile["tasks"]);
    CHECK(closed.profile["warnings"].empty());
    // fib(15) without cut-off: 1972 creations, every one deferred; the
    // calls close every creation, the inline form only those inside which
    // something happened (233 tasks run at once, 55 atomics).
    const std::uint64_t creations = visits_of(calls.profile, 10) + visits_of(calls.profile, 12);
    CHECK(creations == 1972);
    CHECK(calls.end_calls_made == 1972);
    CHECK(closed.end_calls_made == 233 + 55);
}

TEST_CASE("deferred tasks' creations closed inline: not while switched off", "[tasks][untimed]") {
    test::ManualClock clock;
    core::Measurement& m = adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    const auto advance = [&](core::Ticks ticks) { clock.at(clock.ticks.load() + ticks); };
    const auto deferred_creation = [&](bool switched_off) {
        POMP2_Task_handle child = 0, creator = 0;
        advance(10);
        POMP2_Task_create_begin_fast(&g_task_x, &child, &creator, 1, 0, kTaskX.c_str(), 0);
        advance(5);
        if (switched_off) POMP2_Off();
        POMP2_Task_create_end_fast(&g_task_x, creator);
        if (switched_off) POMP2_On();
        advance(10);
        POMP2_Task_begin(&g_task_x, child);
        advance(1);
        POMP2_Task_end(&g_task_x);
    };
    g_end_calls_made = 0;
    deferred_creation(false);
    deferred_creation(false);
    CHECK(g_end_calls_made == 0);
    deferred_creation(true);
    CHECK(g_end_calls_made == 1);
    const nlohmann::json profile = writers::to_json(m.build_profile());
    // Switched off before its end, the third creation is still open; the
    // first two were closed inline, each a visit of 5 ticks.
    CHECK(visits_of(profile, 10) == 2);
    for (const auto& node : profile["nodes"]) {
        if (node["kind"] != "region" || node["region"].is_null()) continue;
        for (const auto& region : profile["regions"]) {
            if (region["id"] != node["region"] || region["first_line"] != 10) continue;
            CHECK(node["threads"][0]["inclusive_s"].get<double>() == Approx(10e-9));
        }
    }
}

TEST_CASE("untimed tasks counted inline: nothing while switched off or after the end", "[tasks][untimed]") {
    test::ManualClock clock;
    core::Measurement& m = adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    const auto undeferred_task = [] {
        POMP2_Task_handle child = 0, creator = 0;
        POMP2_Task_create_begin_fast(&g_task_x, &child, &creator, 0, 0, kTaskX.c_str(), 0);
        if (!POMP2_UNTIMED_DONE(creator)) POMP2_Task_create_end(&g_task_x, creator);
    };
    const auto created = [&] { return visits_of(writers::to_json(m.build_profile()), 10); };
    for (int i = 0; i < 3; ++i) undeferred_task();  // the first fills the cache
    REQUIRE(created() == 3);
    g_calls_made = 0;
    undeferred_task();
    CHECK(g_calls_made == 0);
    CHECK(created() == 4);

    POMP2_Off();
    undeferred_task();
    CHECK(created() == 4);
    POMP2_On();
    undeferred_task();
    undeferred_task();
    CHECK(created() == 6);

    m.stop();
    g_calls_made = 0;
    undeferred_task();
    CHECK(g_calls_made == 1);
    CHECK(created() == 6);
}

TEST_CASE("untimed tasks counted inline: control flow first seen inline, counts added at the end", "[tasks][untimed]") {
    // Undeferred tasks of two constructs, X X X Y Y X, an atomic, X Y: once
    // the first visit of each construct filled its slot, every later one is
    // counted inline, also where the control flow between them was not seen
    // before (Y after Y, X after Y), until the atomic (an event) clears the
    // cache.  The last X and Y are still in the slots when the measurement
    // ends: the finaliser adds them, and the profile it builds on another
    // thread is the one of the calls.
    const auto run = [](bool inline_counts) {
        test::ManualClock clock;
        core::Measurement& m = adapter::restart_for_testing(clock.clock(), config::Config::defaults());
        g_calls_made = 0;
        const auto undeferred = [&](POMP2_Region_handle* task, const std::string& task_ctc, unsigned slot) {
            POMP2_Task_handle child = 0, creator = 0;
            if (inline_counts) {
                POMP2_Task_create_begin_fast(task, &child, &creator, 0, 0, task_ctc.c_str(), slot);
            } else {
                POMP2_Task_create_begin_final(task, &child, &creator, 0, 0, task_ctc.c_str());
            }
            if (!POMP2_UNTIMED_DONE(creator)) POMP2_Task_create_end(task, creator);
        };
        const auto x = [&] { undeferred(&g_task_x, kTaskX, 0); };
        const auto y = [&] { undeferred(&g_task_y, kTaskY, 1); };
        x(), x(), x(), y(), y(), x();
        POMP2_Atomic_count(&g_atomic, kAtomic.c_str());
        x(), y();
        m.stop();
        m.close_open_regions(clock.at(5000));
        nlohmann::json profile;
        std::thread([&] { profile = writers::to_json(m.build_profile()); }).join();
        return std::pair{profile, g_calls_made};
    };
    const auto [calls, _] = run(false);
    const auto [counted, calls_made] = run(true);
    CHECK(visits_of(calls, 10) == 5);
    CHECK(visits_of(calls, 12) == 3);
    CHECK(counted["nodes"] == calls["nodes"]);
    CHECK(counted["tasks"] == calls["tasks"]);
    // The first X, the first Y, the first X after the atomic.
    CHECK(calls_made == 3);
}

TEST_CASE("POMP2_UNTIMED_DONE is libompp's is_untimed_done", "[tasks][untimed]") {
    // The four top bits decide, whatever the handle below them.
    for (std::uint64_t top = 0; top < 16; ++top) {
        for (const std::uint64_t below : {std::uint64_t{0}, std::uint64_t{1} << 40 | 7, (std::uint64_t{1} << 60) - 1}) {
            const auto value = static_cast<POMP2_Task_handle>(top << 60 | below);
            CHECK(POMP2_UNTIMED_DONE(value) == core::is_untimed_done(value));
        }
    }
}

TEST_CASE("untimed tasks counted inline: counts left when switched off are added at the thread's next event",
          "[tasks][untimed]") {
    // X X X: the last two counted in the slot.  POMP2_Off clears every
    // thread's mode from the switching thread (here the same; in a program
    // any), so the counts stay in the slot until the thread's next event,
    // the atomic after POMP2_On, which adds them first.  A profile built on
    // another thread then shows the calls' profile, control flow included.
    const auto run = [](bool inline_counts) {
        test::ManualClock clock;
        core::Measurement& m = adapter::restart_for_testing(clock.clock(), config::Config::defaults());
        for (int i = 0; i < 3; ++i) {
            POMP2_Task_handle child = 0, creator = 0;
            if (inline_counts) {
                POMP2_Task_create_begin_fast(&g_task_x, &child, &creator, 0, 0, kTaskX.c_str(), 0);
            } else {
                POMP2_Task_create_begin_final(&g_task_x, &child, &creator, 0, 0, kTaskX.c_str());
            }
            if (!POMP2_UNTIMED_DONE(creator)) POMP2_Task_create_end(&g_task_x, creator);
        }
        POMP2_Off();
        POMP2_On();
        POMP2_Atomic_count(&g_atomic, kAtomic.c_str());
        nlohmann::json profile;
        std::thread([&] { profile = writers::to_json(m.build_profile()); }).join();
        return profile;
    };
    const nlohmann::json calls = run(false);
    const nlohmann::json counted = run(true);
    CHECK(visits_of(calls, 10) == 3);
    CHECK(counted["nodes"] == calls["nodes"]);
}
