// Drives libompp through the POMP2 C API, with the call sequences OPARI2
// emits (opari2-reference.md §2), on a manual clock.
#include <catch2/catch.hpp>

#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <tuple>
#include <fstream>
#include <map>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "adapter/lifecycle.hpp"
#include "analyses/invariants/invariants.hpp"
#include "event_stream.hpp"

using namespace ompp;
using model::NodeKind;
using test::find_child;
using test::kNs;
using test::thread_of;

namespace {

#define CTC(body) (std::to_string(std::string(body).size()) + std::string(body)).c_str()

}  // namespace

TEST_CASE("POMP2: parallel, for with implicit barrier, single, critical (OPARI2's sequences)", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle par = nullptr, loop = nullptr, single = nullptr, crit = nullptr;
    const std::string par_ctc = "*regionType=parallel*sscl=a.c:3:3*escl=a.c:30:30**";
    const std::string loop_ctc = "*regionType=for*sscl=a.c:5:5*escl=a.c:9:9**";
    const std::string single_ctc = "*regionType=single*sscl=a.c:10:10*escl=a.c:12:12**";
    const std::string crit_ctc = "*regionType=critical*sscl=a.c:13:13*escl=a.c:15:15*criticalName=c1**";

    POMP2_Task_handle old_task;
    clock.at(100);
    POMP2_Parallel_fork(&par, 1, 1, &old_task, CTC(par_ctc));
    clock.at(110);
    POMP2_Parallel_begin(&par);
    for (int i = 0; i < 2; ++i) {
        clock.at(200 + 100 * i);
        POMP2_For_enter(&loop, CTC(loop_ctc));
        POMP2_Task_handle old_barrier;
        clock.at(250 + 100 * i);
        POMP2_Implicit_barrier_enter(&loop, &old_barrier);
        clock.at(260 + 100 * i);
        POMP2_Implicit_barrier_exit(&loop, old_barrier);
        POMP2_For_exit(&loop);
    }
    POMP2_Single_enter(&single, CTC(single_ctc));
    POMP2_Single_begin(&single);
    clock.at(420);
    POMP2_Single_end(&single);
    POMP2_Single_exit(&single);
    POMP2_Critical_enter(&crit, CTC(crit_ctc));
    clock.at(425);
    POMP2_Critical_begin(&crit);
    clock.at(435);
    POMP2_Critical_end(&crit);
    POMP2_Critical_exit(&crit);
    POMP2_Task_handle old_ib;
    clock.at(450);
    POMP2_Implicit_barrier_enter(&par, &old_ib);
    clock.at(460);
    POMP2_Implicit_barrier_exit(&par, old_ib);
    POMP2_Parallel_end(&par);
    clock.at(470);
    POMP2_Parallel_join(&par, old_task);

    const model::Profile p =
        adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* par_region = static_cast<const core::RegionRecord*>(par);
    const auto* loop_region = static_cast<const core::RegionRecord*>(loop);
    const auto* pn = find_child(p, 0, NodeKind::Region, par_region->info.id);
    REQUIRE(pn != nullptr);
    const auto& pm = *thread_of(*pn, 0);
    CHECK(pm.inclusive_s == Approx(370e-9));
    CHECK(pm.startup_s == Approx(10e-9));
    CHECK(pm.body_s == Approx(350e-9));
    CHECK(pm.shutdown_s == Approx(10e-9));
    const auto* ln = find_child(p, pn->id, NodeKind::Region, loop_region->info.id);
    REQUIRE(ln != nullptr);
    CHECK(thread_of(*ln, 0)->visits == 2);
    const auto* lb = find_child(p, ln->id, NodeKind::ImplicitBarrier, loop_region->info.id);
    REQUIRE(lb != nullptr);
    CHECK(thread_of(*lb, 0)->inclusive_s == Approx(20e-9));
    const auto* sn = find_child(p, pn->id, NodeKind::Region, static_cast<const core::RegionRecord*>(single)->info.id);
    REQUIRE(sn != nullptr);
    CHECK(thread_of(*sn, 0)->body_count == 1);
    const auto* cn = find_child(p, pn->id, NodeKind::Region, static_cast<const core::RegionRecord*>(crit)->info.id);
    REQUIRE(cn != nullptr);
    CHECK(thread_of(*cn, 0)->enter_s == Approx(5e-9));
    CHECK(thread_of(*cn, 0)->body_s == Approx(10e-9));
    CHECK(p.warnings.empty());
    CHECK(p.application.size() > 0);
}

// Events on registered handles take the adapter's common case (one check,
// then the thread's operation); the figures are the general path's.
TEST_CASE("POMP2: critical instances on registered handles: enterT, bodyT, exitT per instance", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle crit = nullptr;
    POMP2_Assign_handle(&crit, CTC("*regionType=critical*sscl=a.c:20:20*escl=a.c:22:22**"));
    // enter, begin, end, exit of two instances.
    const std::array<std::array<core::Ticks, 4>, 2> instances{{{100, 130, 150, 155}, {200, 201, 261, 271}}};
    for (const auto& at : instances) {
        clock.at(at[0]);
        POMP2_Critical_enter(&crit, nullptr);
        clock.at(at[1]);
        POMP2_Critical_begin(&crit);
        clock.at(at[2]);
        POMP2_Critical_end(&crit);
        clock.at(at[3]);
        POMP2_Critical_exit(&crit);
    }
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* cn = find_child(p, 0, NodeKind::Region, static_cast<const core::RegionRecord*>(crit)->info.id);
    REQUIRE(cn != nullptr);
    const auto& metrics = *thread_of(*cn, 0);
    CHECK(metrics.visits == 2);
    CHECK(metrics.inclusive_s == Approx((55 + 71) * kNs));
    CHECK(metrics.min_s == Approx(55 * kNs));
    CHECK(metrics.max_s == Approx(71 * kNs));
    CHECK(metrics.enter_s == Approx((30 + 1) * kNs));
    CHECK(metrics.body_s == Approx((20 + 60) * kNs));
    CHECK(metrics.body_count == 2);
    CHECK(metrics.exit_s == Approx((5 + 10) * kNs));
    CHECK(p.warnings.empty());
}

// A clock that reads with a call (CLOCK_MONOTONIC, OMPP_CLOCK=monotonic)
// takes the events' general path: the phases still add up to the visit.
TEST_CASE("POMP2: critical instances under the monotonic clock: the phases add up to the visits", "[adapter]") {
    adapter::restart_for_testing(core::Clock::calibrated(false), config::Config::defaults());
    static POMP2_Region_handle crit = nullptr;
    POMP2_Assign_handle(&crit, CTC("*regionType=critical*sscl=a.c:40:40*escl=a.c:42:42**"));
    for (int i = 0; i < 3; ++i) {
        POMP2_Critical_enter(&crit, nullptr);
        POMP2_Critical_begin(&crit);
        POMP2_Critical_end(&crit);
        POMP2_Critical_exit(&crit);
    }
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* cn = find_child(p, 0, NodeKind::Region, static_cast<const core::RegionRecord*>(crit)->info.id);
    REQUIRE(cn != nullptr);
    const auto& metrics = *thread_of(*cn, 0);
    CHECK(metrics.visits == 3);
    CHECK(metrics.body_count == 3);
    CHECK(metrics.inclusive_s > 0);
    CHECK(metrics.enter_s + metrics.body_s + metrics.exit_s == Approx(metrics.inclusive_s).epsilon(1e-9));
}

TEST_CASE("POMP2: a construct kind switched off (OMPP_DISABLE_CRITICAL) is not measured on registered handles", "[adapter]") {
    test::ManualClock clock;
    std::vector<std::string> diagnostics;
    const auto lookup = [](const char* name) -> const char* {
        return std::string_view(name) == "OMPP_DISABLE_CRITICAL" ? "1" : nullptr;
    };
    adapter::restart_for_testing(clock.clock(), config::Config::load(diagnostics, lookup));
    REQUIRE(diagnostics.empty());
    static POMP2_Region_handle crit = nullptr;
    static POMP2_USER_Region_handle user = nullptr;
    POMP2_Assign_handle(&crit, CTC("*regionType=critical*sscl=a.c:30:30*escl=a.c:32:32**"));
    POMP2_USER_Assign_handle(&user, CTC("*regionType=userRegion*sscl=a.c:29:29*escl=a.c:33:33*userRegionName=u**"));
    clock.at(100);
    POMP2_Begin(&user, nullptr);
    POMP2_Critical_enter(&crit, nullptr);
    clock.at(110);
    POMP2_Critical_begin(&crit);
    POMP2_Critical_end(&crit);
    clock.at(120);
    POMP2_Critical_exit(&crit);
    POMP2_End(&user);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* un = find_child(p, 0, NodeKind::Region, static_cast<const core::RegionRecord*>(user)->info.id);
    REQUIRE(un != nullptr);
    CHECK(thread_of(*un, 0)->inclusive_s == Approx(20 * kNs));
    CHECK(find_child(p, un->id, NodeKind::Region, static_cast<const core::RegionRecord*>(crit)->info.id) == nullptr);
    CHECK(p.warnings.empty());
}

TEST_CASE("POMP2: tasks with the old/new task handle protocol", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle task = nullptr, taskwait = nullptr;
    const std::string task_ctc = "*regionType=task*sscl=t.c:5:5*escl=t.c:7:7**";
    const std::string taskwait_ctc = "*regionType=taskwait*sscl=t.c:8:8*escl=t.c:8:8**";
    POMP2_Task_handle old_task, new_task;
    clock.at(100);
    POMP2_Task_create_begin(&task, &new_task, &old_task, 1, CTC(task_ctc));
    clock.at(110);
    POMP2_Task_create_end(&task, old_task);
    POMP2_Task_handle old_wait;
    POMP2_Taskwait_begin(&taskwait, &old_wait, CTC(taskwait_ctc));
    clock.at(120);
    POMP2_Task_begin(&task, new_task);
    clock.at(150);
    POMP2_Task_end(&task);
    clock.at(160);
    POMP2_Taskwait_end(&taskwait, old_wait);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    REQUIRE(p.tasks.size() == 1);
    CHECK(p.tasks[0].instances == 1);
    CHECK(p.tasks[0].mean_s == Approx(30e-9));
    CHECK(p.tasks[0].creation_s == Approx(10e-9));
    CHECK(p.warnings.empty());
}

// Issue 11: a task run inside its creation (if(0), final) costs about a
// call: counted as an included instance of its construct, its time the
// creation's, no clock read at its begin and end.
TEST_CASE("POMP2: a task run inside its creation is an included instance, its time the creation's", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle task = nullptr;
    const std::string task_ctc = "*regionType=task*sscl=u.c:5:5*escl=u.c:7:7**";
    for (int i = 0; i < 3; ++i) {
        POMP2_Task_handle old_task, new_task;
        clock.at(100 + 100 * i);
        POMP2_Task_create_begin(&task, &new_task, &old_task, 1, CTC(task_ctc));
        clock.at(110 + 100 * i);
        POMP2_Task_begin(&task, new_task);  // the runtime runs it at once
        clock.at(150 + 100 * i);
        POMP2_Task_end(&task);
        clock.at(160 + 100 * i);
        POMP2_Task_create_end(&task, old_task);
    }
    // A deferred one, run later at a taskwait, is a task of its own.
    POMP2_Task_handle old_task, new_task;
    clock.at(400);
    POMP2_Task_create_begin(&task, &new_task, &old_task, 1, CTC(task_ctc));
    clock.at(410);
    POMP2_Task_create_end(&task, old_task);
    clock.at(420);
    POMP2_Task_begin(&task, new_task);
    clock.at(450);
    POMP2_Task_end(&task);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    REQUIRE(p.tasks.size() == 1);
    CHECK(p.tasks[0].instances == 4);
    CHECK(p.tasks[0].included == 3);
    CHECK(p.tasks[0].mean_s == Approx(30e-9));  // the one run apart
    CHECK(p.tasks[0].creation_s == Approx(3 * 60e-9 + 10e-9));
    const auto* task_region = static_cast<const core::RegionRecord*>(task);
    const auto* creation = find_child(p, 0, NodeKind::Region, task_region->info.id);
    REQUIRE(creation != nullptr);
    CHECK(thread_of(*creation, 0)->visits == 4);
    CHECK(thread_of(*creation, 0)->body_count == 3);
    const auto* tree = find_child(p, 0, NodeKind::TaskRoot, task_region->info.id);
    REQUIRE(tree != nullptr);
    CHECK(thread_of(*tree, 0)->visits == 1);
    CHECK(p.warnings.empty());
}

// Below a BOTS-style if/final cut-off, included tasks of two constructs
// recurse inside each other: they fold under the outermost creation, so the
// tree stays one node per construct whatever the recursion depth.
TEST_CASE("POMP2: a recursion of included tasks folds under the outermost creation", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle x = nullptr, y = nullptr;
    const std::string x_ctc = "*regionType=task*sscl=f.c:5:5*escl=f.c:5:5**";
    const std::string y_ctc = "*regionType=task*sscl=f.c:7:7*escl=f.c:7:7**";
    core::Ticks now = 100;
    std::function<void(int)> fib = [&](int n) {
        if (n < 2) return;
        for (auto [handle, ctc, arg] : {std::tuple{&x, &x_ctc, n - 1}, std::tuple{&y, &y_ctc, n - 2}}) {
            POMP2_Task_handle old_task, new_task;
            clock.at(now += 10);
            POMP2_Task_create_begin(handle, &new_task, &old_task, 1, CTC(*ctc));
            POMP2_Task_begin(handle, new_task);
            fib(arg);
            POMP2_Task_end(handle);
            clock.at(now += 10);
            POMP2_Task_create_end(handle, old_task);
        }
    };
    fib(12);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    CHECK(p.nodes.size() == 7);  // root, the two outermost creations, both constructs folded under each
    std::uint64_t included = 0;
    for (const auto& task : p.tasks) included += task.included;
    CHECK(included == 464);  // every call of fib(12) but the first (2 fib(13) - 2) is a task
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}

namespace {
const model::TaskStatistics& task_statistics(const model::Profile& p, POMP2_Region_handle handle) {
    const auto id = static_cast<const core::RegionRecord*>(handle)->info.id;
    const auto it = std::find_if(p.tasks.begin(), p.tasks.end(), [&](const auto& t) { return t.region == id; });
    REQUIRE(it != p.tasks.end());
    return *it;
}
std::uint32_t id_of(POMP2_Region_handle handle) { return static_cast<const core::RegionRecord*>(handle)->info.id; }
}  // namespace

// Issue 11: libgomp runs nearly every BOTS UTS task at once inside its
// creation, the recursion hundreds of levels deep.  A creation inside a
// task of its own construct whose creation folded has no time of its own
// (Frame::untimed): no clock is read for it, and the folded times still add
// up, the regions inside it subtracted from the folded creation's exclusive
// time as they were.
TEST_CASE("POMP2: creations folded inside a creation of their own construct keep the folded times exact",
          "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle task = nullptr, user = nullptr;
    const std::string task_ctc = "*regionType=task*sscl=u.c:5:5*escl=u.c:5:5**";
    const std::string user_ctc = "*regionType=userRegion*sscl=u.c:9:9*escl=u.c:11:11*userRegionName=leaf**";
    // A task run at once inside its creation at `begin`, ended at `end`;
    // inside it, a user region of `user_ticks` and the next level.
    std::function<void(int, core::Ticks, core::Ticks)> level = [&](int depth, core::Ticks begin, core::Ticks end) {
        POMP2_Task_handle old_task, new_task;
        clock.at(begin);
        POMP2_Task_create_begin_final(&task, &new_task, &old_task, 1, 0, CTC(task_ctc));
        POMP2_Task_begin(&task, new_task);
        if (depth > 1) level(depth - 1, begin + 10, end - 100);
        clock.at(end - 60);
        POMP2_Begin(&user, CTC(user_ctc));
        clock.at(end - 20);
        POMP2_End(&user);
        POMP2_Task_end(&task);
        clock.at(end);
        POMP2_Task_create_end(&task, old_task);
    };
    // Level 1 (100-1000) is the fold point; level 2 (110-900) the folded
    // creation's outermost visit; levels 3 and 4 (120-800, 130-700) fold
    // into level 2's node directly inside it.
    level(4, 100, 1000);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* outermost = find_child(p, 0, NodeKind::Region, id_of(task));
    REQUIRE(outermost != nullptr);
    const auto* folded = find_child(p, outermost->id, NodeKind::Region, id_of(task));
    const auto* leaf = find_child(p, outermost->id, NodeKind::Region, id_of(user));
    REQUIRE(folded != nullptr);
    REQUIRE(leaf != nullptr);
    CHECK(folded->recursion_depth == 3);
    CHECK(thread_of(*folded, 0)->visits == 3);
    CHECK(thread_of(*folded, 0)->inclusive_s == Approx(790e-9));  // level 2's visit
    // Level 2's visit less the user regions of levels 2 to 4 (40 ns each).
    CHECK(thread_of(*folded, 0)->exclusive_s == Approx(670e-9));
    CHECK(thread_of(*leaf, 0)->visits == 4);
    CHECK(thread_of(*leaf, 0)->inclusive_s == Approx(160e-9));
    CHECK(thread_of(*outermost, 0)->inclusive_s == Approx(900e-9));
    CHECK(thread_of(*outermost, 0)->exclusive_s == Approx(900e-9 - 670e-9 - 160e-9));
    CHECK(task_statistics(p, task).included == 4);
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}

// Issue 11: with the if and final clauses passed, a task they make run at
// once (undeferred, or created inside a final task) is counted without a
// clock: a visit of no time on its creation node and an included instance,
// its time its creator's; a taskwait with nothing to wait for likewise.
TEST_CASE("POMP2: tasks the if and final clauses make run at once are counted without a clock", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle undeferred = nullptr, final_task = nullptr, child = nullptr, taskwait = nullptr;
    const std::string undeferred_ctc = "*regionType=task*sscl=c.c:5:5*escl=c.c:9:9**";
    const std::string final_ctc = "*regionType=task*sscl=c.c:10:10*escl=c.c:16:16**";
    const std::string child_ctc = "*regionType=task*sscl=c.c:12:12*escl=c.c:13:13**";
    const std::string taskwait_ctc = "*regionType=taskwait*sscl=c.c:14:14*escl=c.c:14:14**";
    // if(0), with a taskwait that has nothing to wait for.
    POMP2_Task_handle old_u, new_u, old_w;
    clock.at(100);
    POMP2_Task_create_begin_final(&undeferred, &new_u, &old_u, 0, 0, CTC(undeferred_ctc));
    clock.at(110);
    CHECK(new_u == POMP2_UNTIMED_TASK);  // its body has no events
    POMP2_Taskwait_begin(&taskwait, &old_w, CTC(taskwait_ctc));
    clock.at(130);
    POMP2_Taskwait_end(&taskwait, old_w);
    clock.at(150);
    POMP2_Task_create_end(&undeferred, old_u);
    // final(1), deferred and run later: the task created inside it is included.
    POMP2_Task_handle old_f, new_f, old_c, new_c;
    clock.at(200);
    POMP2_Task_create_begin_final(&final_task, &new_f, &old_f, 1, 1, CTC(final_ctc));
    clock.at(210);
    POMP2_Task_create_end(&final_task, old_f);
    clock.at(300);
    POMP2_Task_begin(&final_task, new_f);
    clock.at(310);
    POMP2_Task_create_begin_final(&child, &new_c, &old_c, 1, 0, CTC(child_ctc));
    CHECK(new_c == POMP2_UNTIMED_TASK);
    clock.at(330);
    POMP2_Task_create_end(&child, old_c);
    POMP2_Taskwait_begin(&taskwait, &old_w, nullptr);
    clock.at(340);
    POMP2_Taskwait_end(&taskwait, old_w);
    clock.at(400);
    POMP2_Task_end(&final_task);
    clock.at(500);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());

    CHECK(task_statistics(p, undeferred).instances == 1);
    CHECK(task_statistics(p, undeferred).included == 1);
    CHECK(task_statistics(p, child).included == 1);
    CHECK(task_statistics(p, final_task).included == 0);
    CHECK(task_statistics(p, final_task).mean_s == Approx(100e-9));
    CHECK(task_statistics(p, final_task).creation_s == Approx(10e-9));
    for (auto [parent, handle] : {std::pair{0u, undeferred}, std::pair{0u, taskwait}}) {
        const auto* node = find_child(p, parent, NodeKind::Region, id_of(handle));
        REQUIRE(node != nullptr);
        CHECK(thread_of(*node, 0)->visits == 1);
        CHECK(thread_of(*node, 0)->inclusive_s == 0);
    }
    const auto* tree = find_child(p, 0, NodeKind::TaskRoot, id_of(final_task));
    REQUIRE(tree != nullptr);
    CHECK(thread_of(*tree, 0)->exclusive_s == Approx(100e-9));  // the included task's time is its creator's
    for (POMP2_Region_handle handle : {child, taskwait}) {
        const auto* node = find_child(p, tree->id, NodeKind::Region, id_of(handle));
        REQUIRE(node != nullptr);
        CHECK(thread_of(*node, 0)->visits == 1);
        CHECK(thread_of(*node, 0)->inclusive_s == 0);
    }
    CHECK(find_child(p, 0, NodeKind::Region, id_of(child)) == nullptr);
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}

// The instrumented code leaves out the end of an untimed creation or taskwait
// when POMP2_UNTIMED_DONE says it has nothing to do: all but the outermost
// final task, whose end lets tasks created after it be deferred again.
TEST_CASE("POMP2: only the outermost untimed final task needs its creation's end", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle task = nullptr, taskwait = nullptr;
    const std::string task_ctc = "*regionType=task*sscl=f.c:5:5*escl=f.c:5:5**";
    const std::string taskwait_ctc = "*regionType=taskwait*sscl=f.c:7:7*escl=f.c:7:7**";
    POMP2_Task_handle old_u, new_u, old_f, new_f, old_i, new_i, old_w, old_d, new_d;
    clock.at(100);
    POMP2_Task_create_begin_final(&task, &new_u, &old_u, 0, 0, CTC(task_ctc));  // if(0)
    CHECK(new_u == POMP2_UNTIMED_TASK);
    CHECK(POMP2_UNTIMED_DONE(old_u));
    POMP2_Task_create_begin_final(&task, &new_f, &old_f, 0, 1, nullptr);  // if(0) final(1): the outermost final
    CHECK(new_f == POMP2_UNTIMED_TASK);
    CHECK_FALSE(POMP2_UNTIMED_DONE(old_f));
    POMP2_Task_create_begin_final(&task, &new_i, &old_i, 1, 1, nullptr);  // inside it: included
    CHECK(new_i == POMP2_UNTIMED_TASK);
    CHECK(POMP2_UNTIMED_DONE(old_i));
    POMP2_Taskwait_begin(&taskwait, &old_w, CTC(taskwait_ctc));  // nothing to wait for
    CHECK(POMP2_UNTIMED_DONE(old_w));
    POMP2_Task_create_end(&task, old_f);
    // After the final task: a task with if(1) is deferred, and a taskwait after it measured.
    clock.at(200);
    POMP2_Task_create_begin_final(&task, &new_d, &old_d, 1, 0, nullptr);
    CHECK(new_d != POMP2_UNTIMED_TASK);
    CHECK_FALSE(POMP2_UNTIMED_DONE(old_d));
    clock.at(210);
    POMP2_Task_create_end(&task, old_d);
    POMP2_Taskwait_begin(&taskwait, &old_w, nullptr);
    CHECK_FALSE(POMP2_UNTIMED_DONE(old_w));
    clock.at(250);
    POMP2_Task_begin(&task, new_d);
    clock.at(300);
    POMP2_Task_end(&task);
    POMP2_Taskwait_end(&taskwait, old_w);
    clock.at(400);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());

    CHECK(task_statistics(p, task).instances == 4);
    CHECK(task_statistics(p, task).included == 3);
    CHECK(task_statistics(p, task).mean_s == Approx(50e-9));
    const auto* wait = find_child(p, 0, NodeKind::Region, id_of(taskwait));
    REQUIRE(wait != nullptr);
    CHECK(thread_of(*wait, 0)->visits == 2);
    CHECK(thread_of(*wait, 0)->inclusive_s == Approx(90e-9));  // the measured one, its task included
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}

TEST_CASE("POMP2: atomic and flush counted without timing: visits, no time, in the control flow", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle par = nullptr, atomic = nullptr, flush = nullptr, timed = nullptr;
    const std::string par_ctc = "*regionType=parallel*sscl=d.c:3:3*escl=d.c:20:20**";
    const std::string atomic_ctc = "*regionType=atomic*sscl=d.c:5:5*escl=d.c:6:6*timing=count**";
    const std::string flush_ctc = "*regionType=flush*sscl=d.c:7:7*escl=d.c:7:7*timing=count**";
    const std::string timed_ctc = "*regionType=atomic*sscl=d.c:8:8*escl=d.c:9:9**";
    POMP2_Task_handle old_task;
    clock.at(100);
    POMP2_Parallel_fork(&par, 1, 1, &old_task, CTC(par_ctc));
    POMP2_Parallel_begin(&par);
    for (int i = 0; i < 3; ++i) {
        clock.at(200 + 100 * i);  // the count calls read no clock: their time stays 0
        POMP2_Atomic_count(&atomic, CTC(atomic_ctc));
        POMP2_Flush_count(&flush, CTC(flush_ctc));
        clock.at(250 + 100 * i);
        POMP2_Atomic_enter(&timed, CTC(timed_ctc));
        clock.at(260 + 100 * i);
        POMP2_Atomic_exit(&timed);
    }
    clock.at(600);
    POMP2_Parallel_end(&par);
    POMP2_Parallel_join(&par, old_task);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());

    const auto* pn = find_child(p, 0, NodeKind::Region, id_of(par));
    REQUIRE(pn != nullptr);
    const auto* an = find_child(p, pn->id, NodeKind::Region, id_of(atomic));
    const auto* fn = find_child(p, pn->id, NodeKind::Region, id_of(flush));
    const auto* tn = find_child(p, pn->id, NodeKind::Region, id_of(timed));
    REQUIRE(an != nullptr);
    REQUIRE(fn != nullptr);
    REQUIRE(tn != nullptr);
    for (const auto* counted : {an, fn}) {
        CHECK(thread_of(*counted, 0)->visits == 3);
        CHECK(thread_of(*counted, 0)->inclusive_s == 0);
        CHECK(thread_of(*counted, 0)->max_s == 0);
    }
    CHECK(thread_of(*tn, 0)->visits == 3);
    CHECK(thread_of(*tn, 0)->inclusive_s == Approx(30e-9));
    CHECK(thread_of(*pn, 0)->exclusive_s == Approx(470e-9));  // the counted constructs' time is the region's
    // Control flow: atomic after the parallel's begin or the timed atomic, flush after atomic.
    const auto count_from = [](const model::Node& node, std::uint32_t from) {
        std::uint64_t total = 0;
        for (const auto& predecessor : node.predecessors)
            if (predecessor.node == from) total += predecessor.count;
        return total;
    };
    CHECK(count_from(*fn, an->id) == 3);
    CHECK(count_from(*an, tn->id) == 2);
    const auto region_of = [&](POMP2_Region_handle handle) {
        return *std::find_if(p.regions.begin(), p.regions.end(), [&](const auto& r) { return r.id == id_of(handle); });
    };
    CHECK_FALSE(region_of(atomic).timed);
    CHECK_FALSE(region_of(flush).timed);
    CHECK(region_of(timed).timed);
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}

// A task that may have been deferred was created inside the undeferred task:
// its taskwait may wait, and is measured.  A recursion of undeferred tasks
// (BOTS-style `if` cut-off) adds no node per level.
// BOTS UTS with libgomp (issue 11): deferrable tasks (if true) that the
// runtime runs at once inside their creation, each ending with a taskwait
// that comes after all its children ran at once too.  That taskwait has
// nothing to wait for at every nesting level, so it is counted without a
// clock (a visit of no time, its end no call); one whose task left a child
// pending (deferred, run later) still waits as measured, and so does the
// taskwait of every task enclosing it, which may have been kept waiting.
TEST_CASE("POMP2: a taskwait inside a task run at once has nothing to wait for once all its children ran at once",
          "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle node_task = nullptr, deferred = nullptr, taskwait = nullptr;
    const std::string node_ctc = "*regionType=task*sscl=t.c:5:5*escl=t.c:5:5**";
    const std::string deferred_ctc = "*regionType=task*sscl=t.c:6:6*escl=t.c:6:6**";
    const std::string taskwait_ctc = "*regionType=taskwait*sscl=t.c:8:8*escl=t.c:8:8**";
    core::Ticks now = 100;
    int untimed_waits = 0;
    int waits = 0;
    std::vector<POMP2_Task_handle> pending;  // deferred tasks not run yet
    // A tree node: `children` tasks run at once, each a subtree one level
    // lower; with `defer_at` == depth, one more task that is deferred.
    std::function<void(int, int)> tree_node = [&](int depth, int defer_at) {
        for (int i = 0; depth > 0 && i < 2; ++i) {
            POMP2_Task_handle old_task, new_task;
            clock.at(now += 10);
            POMP2_Task_create_begin_final(&node_task, &new_task, &old_task, 1, 0, CTC(node_ctc));
            CHECK(new_task != POMP2_UNTIMED_TASK);
            POMP2_Task_begin(&node_task, new_task);  // the runtime runs it at once
            tree_node(depth - 1, defer_at);
            POMP2_Task_end(&node_task);
            clock.at(now += 10);
            POMP2_Task_create_end(&node_task, old_task);
        }
        if (depth == defer_at) {
            POMP2_Task_handle old_task, new_task;
            clock.at(now += 10);
            POMP2_Task_create_begin_final(&deferred, &new_task, &old_task, 1, 0, CTC(deferred_ctc));
            clock.at(now += 10);
            POMP2_Task_create_end(&deferred, old_task);
            pending.push_back(new_task);
        }
        POMP2_Task_handle old_wait;
        clock.at(now += 10);
        POMP2_Taskwait_begin(&taskwait, &old_wait, CTC(taskwait_ctc));
        ++waits;
        if (POMP2_UNTIMED_DONE(old_wait)) ++untimed_waits;
        // The task left pending runs at its creator's taskwait.
        for (POMP2_Task_handle task : pending) {
            clock.at(now += 5);
            POMP2_Task_begin(&deferred, task);
            clock.at(now += 20);
            POMP2_Task_end(&deferred);
        }
        pending.clear();
        clock.at(now += 10);
        POMP2_Taskwait_end(&taskwait, old_wait);
    };
    double measured_wait_s = 0;
    SECTION("every task runs at once") {
        POMP2_Task_handle old_task, new_task;
        clock.at(now += 10);
        POMP2_Task_create_begin_final(&node_task, &new_task, &old_task, 1, 0, CTC(node_ctc));
        POMP2_Task_begin(&node_task, new_task);
        tree_node(4, -1);
        POMP2_Task_end(&node_task);
        clock.at(now += 10);
        POMP2_Task_create_end(&node_task, old_task);
        // The tree of 4 levels below the outermost task: 31 tasks, each waits for nothing.
        CHECK(waits == 31);
        CHECK(untimed_waits == 31);
    }
    SECTION("one task left pending: the waits enclosing it are measured") {
        POMP2_Task_handle old_task, new_task;
        clock.at(now += 10);
        POMP2_Task_create_begin_final(&node_task, &new_task, &old_task, 1, 0, CTC(node_ctc));
        POMP2_Task_begin(&node_task, new_task);
        tree_node(2, 1);  // both tasks of depth 1 defer one each
        POMP2_Task_end(&node_task);
        clock.at(now += 10);
        POMP2_Task_create_end(&node_task, old_task);
        // Leaves (depth 0) wait for nothing; the depth-1 tasks have a pending
        // child; the depth-2 one has pending grandchildren, counted as unsettled.
        CHECK(waits == 7);
        CHECK(untimed_waits == 4);
        // Each measured wait spans 10 ticks, plus 25 for the deferred task
        // run there (depth 1).
        measured_wait_s = 2 * 35e-9 + 10e-9;
    }
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto& creation = *find_child(p, 0, NodeKind::Region, id_of(node_task));
    const auto* wait = find_child(p, creation.id, NodeKind::Region, id_of(taskwait));
    REQUIRE(wait != nullptr);
    CHECK(thread_of(*wait, 0)->visits == static_cast<std::uint64_t>(waits));
    CHECK(thread_of(*wait, 0)->inclusive_s == Approx(measured_wait_s));
    CHECK(task_statistics(p, node_task).included == static_cast<std::uint64_t>(waits));
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}

TEST_CASE("POMP2: a taskwait that may wait is measured inside undeferred tasks; their recursion stays flat",
          "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle x = nullptr, deferred = nullptr, taskwait = nullptr;
    const std::string x_ctc = "*regionType=task*sscl=r.c:5:5*escl=r.c:5:5**";
    const std::string deferred_ctc = "*regionType=task*sscl=r.c:6:6*escl=r.c:6:6**";
    const std::string taskwait_ctc = "*regionType=taskwait*sscl=r.c:7:7*escl=r.c:7:7**";
    core::Ticks now = 100;
    int undeferred_tasks = 0;
    std::function<void(int)> recurse = [&](int n) {
        if (n == 0) return;
        POMP2_Task_handle old_task, new_task, old_wait;
        clock.at(now += 10);
        POMP2_Task_create_begin_final(&x, &new_task, &old_task, 0, 0, CTC(x_ctc));
        ++undeferred_tasks;
        CHECK(new_task == POMP2_UNTIMED_TASK);
        recurse(n - 1);
        clock.at(now += 10);
        POMP2_Task_create_end(&x, old_task);
        POMP2_Taskwait_begin(&taskwait, &old_wait, CTC(taskwait_ctc));
        POMP2_Taskwait_end(&taskwait, old_wait);
    };
    recurse(100);
    POMP2_Task_handle old_u, new_u, old_d, new_d, old_w;
    clock.at(now += 10);
    POMP2_Task_create_begin_final(&x, &new_u, &old_u, 0, 0, nullptr);
    POMP2_Task_create_begin_final(&deferred, &new_d, &old_d, 1, 0, CTC(deferred_ctc));
    clock.at(now += 10);
    POMP2_Task_create_end(&deferred, old_d);
    POMP2_Taskwait_begin(&taskwait, &old_w, nullptr);
    clock.at(now += 30);
    POMP2_Task_begin(&deferred, new_d);
    clock.at(now += 40);
    POMP2_Task_end(&deferred);
    clock.at(now += 5);
    POMP2_Taskwait_end(&taskwait, old_w);
    POMP2_Task_create_end(&x, old_u);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());

    CHECK(task_statistics(p, x).included == static_cast<std::uint64_t>(undeferred_tasks) + 1);
    const auto* wait = find_child(p, 0, NodeKind::Region, id_of(taskwait));
    REQUIRE(wait != nullptr);
    CHECK(thread_of(*wait, 0)->visits == 101);
    CHECK(thread_of(*wait, 0)->inclusive_s == Approx(75e-9));  // the one that waited, the task it ran included
    CHECK(task_statistics(p, deferred).mean_s == Approx(40e-9));
    CHECK(p.nodes.size() <= 8);  // root, the creations, the taskwait, the deferred task's tree and stub
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}

TEST_CASE("POMP2: named user regions match by name, a stray end is a warning with file and line", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle site = nullptr;
    POMP2_USER_Begin_named(&site, "solve", "main.cpp", 12);
    clock.at(2000);
    POMP2_USER_End_named("solve", "main.cpp", 20);
    POMP2_USER_End_named("solve", "main.cpp", 21);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* region = static_cast<const core::RegionRecord*>(site);
    REQUIRE(region != nullptr);
    CHECK(region->info.name == "solve");
    const auto* node = find_child(p, 0, NodeKind::Region, region->info.id);
    REQUIRE(node != nullptr);
    CHECK(thread_of(*node, 0)->visits == 1);
    REQUIRE(p.warnings.size() == 1);
    CHECK_THAT(p.warnings[0].text, Catch::Contains("main.cpp:21"));
}

TEST_CASE("POMP2: Off suspends measurement, On resumes it", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_USER_Region_handle user = nullptr;
    const std::string ctc = "*regionType=userRegion*sscl=u.c:1:1*escl=u.c:3:3*userRegionName=u**";
    POMP2_Off();
    POMP2_Begin(&user, CTC(ctc));
    POMP2_End(&user);
    POMP2_On();
    POMP2_Begin(&user, CTC(ctc));
    POMP2_End(&user);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* node = find_child(p, 0, NodeKind::Region, static_cast<const core::RegionRecord*>(user)->info.id);
    REQUIRE(node != nullptr);
    CHECK(thread_of(*node, 0)->visits == 1);
}

TEST_CASE("POMP2: finalising writes the reports once, later calls are no-ops", "[adapter]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("ompp-lifecycle-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::map<std::string, std::string> env{
        {"OMPP_OUTDIR", dir.string()}, {"OMPP_APPNAME", "lifecycle"}, {"OMPP_QUIET", "1"}};
    std::vector<std::string> diagnostics;
    auto config = config::Config::load(diagnostics, [&](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    });
    REQUIRE(diagnostics.empty());
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), std::move(config));
    static POMP2_USER_Region_handle user = nullptr;
    const std::string ctc = "*regionType=userRegion*sscl=l.c:1:1*escl=l.c:3:3*userRegionName=l**";
    POMP2_Begin(&user, CTC(ctc));
    clock.at(5000);
    POMP2_End(&user);
    POMP2_Finalize();
    CHECK(adapter::g_gate.load() == nullptr);
    POMP2_Begin(&user, CTC(ctc));  // after finalisation: nothing happens
    POMP2_End(&user);
    POMP2_Finalize();
    CHECK(fs::exists(dir / "lifecycle.1-0.ompp.txt"));
    CHECK(fs::exists(dir / "lifecycle.1-0.ompp.json"));
    CHECK_FALSE(fs::exists(dir / "lifecycle.1-1.ompp.txt"));
    std::ifstream json_file(dir / "lifecycle.1-0.ompp.json");
    const auto json = nlohmann::json::parse(json_file);
    CHECK(json["application"] == "lifecycle");
    CHECK(json["wall_time_s"].get<double>() == Approx(4000e-9));
    fs::remove_all(dir);
}

TEST_CASE("POMP2: sections with OPARI2's shared handle give sectT and sectC", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle sections = nullptr;
    const std::string ctc = "*regionType=sections*sscl=s.c:4:4*escl=s.c:12:12*numSections=2**";
    clock.at(100);
    POMP2_Sections_enter(&sections, CTC(ctc));
    for (int i = 0; i < 2; ++i) {
        clock.at(110 + 20 * i);
        POMP2_Section_begin(&sections, CTC(ctc));
        clock.at(120 + 20 * i);
        POMP2_Section_end(&sections);
    }
    POMP2_Task_handle old_task;
    clock.at(150);
    POMP2_Implicit_barrier_enter(&sections, &old_task);
    clock.at(170);
    POMP2_Implicit_barrier_exit(&sections, old_task);
    POMP2_Sections_exit(&sections);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* region = static_cast<const core::RegionRecord*>(sections);
    const auto* node = find_child(p, 0, NodeKind::Region, region->info.id);
    REQUIRE(node != nullptr);
    const auto& m = *thread_of(*node, 0);
    CHECK(m.visits == 1);
    CHECK(m.body_count == 2);
    CHECK(m.body_s == Approx(20e-9));
    CHECK(m.inclusive_s == Approx(70e-9));
    const auto* barrier = find_child(p, node->id, NodeKind::ImplicitBarrier, region->info.id);
    REQUIRE(barrier != nullptr);
    CHECK(thread_of(*barrier, 0)->inclusive_s == Approx(20e-9));
}

TEST_CASE("POMP2: the function key names a region; absolute files share a source root", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle loop = nullptr, barrier = nullptr;
    POMP2_Assign_handle(&loop, CTC("*regionType=for*sscl=/srv/app/src/kernels/PdV.cpp:48:48*escl=/srv/app/src/"
                                   "kernels/PdV.cpp:65:65*function=Vec::operator%2A=**"));
    POMP2_Assign_handle(&barrier, CTC("*regionType=barrier*sscl=/srv/app/src/driver/hydro.cpp:7:7*escl=/srv/app/src/"
                                      "driver/hydro.cpp:7:7**"));
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* loop_region = static_cast<const core::RegionRecord*>(loop);
    const auto* barrier_region = static_cast<const core::RegionRecord*>(barrier);
    CHECK(loop_region->info.function == "Vec::operator*=");
    CHECK_FALSE(barrier_region->info.function.has_value());
    CHECK(p.source_root == "/srv/app/src/");
}

TEST_CASE("POMP2: sections whose sections have handles of their own: one node each, sectT and sectC kept", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle sections = nullptr, first = nullptr, second = nullptr;
    POMP2_Sections_enter(&sections, CTC("*regionType=sections*sscl=own.c:4:4*escl=own.c:12:12*numSections=2**"));
    const std::string first_ctc = "46*regionType=section*sscl=own.c:5:7*escl=own.c:5:7**";
    const std::string second_ctc = "48*regionType=section*sscl=own.c:8:11*escl=own.c:8:11**";
    const char* section_ctcs[] = {first_ctc.c_str(), second_ctc.c_str()};
    POMP2_Region_handle* section_handles[] = {&first, &second};
    for (int i = 0; i < 2; ++i) {
        clock.at(110 + 20 * i);
        POMP2_Section_begin(section_handles[i], section_ctcs[i]);
        clock.at(120 + 20 * i + 5 * i);
        POMP2_Section_end(section_handles[i]);
    }
    clock.at(160);
    POMP2_Sections_exit(&sections);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto id = [](POMP2_Region_handle h) { return static_cast<const core::RegionRecord*>(h)->info.id; };
    const auto* node = find_child(p, 0, NodeKind::Region, id(sections));
    REQUIRE(node != nullptr);
    CHECK(thread_of(*node, 0)->body_count == 2);
    CHECK(thread_of(*node, 0)->body_s == Approx(25e-9));
    const auto* one = find_child(p, node->id, NodeKind::Region, id(first));
    const auto* two = find_child(p, node->id, NodeKind::Region, id(second));
    REQUIRE(one != nullptr);
    REQUIRE(two != nullptr);
    CHECK(thread_of(*one, 0)->inclusive_s == Approx(10e-9));
    CHECK(thread_of(*two, 0)->inclusive_s == Approx(15e-9));
    CHECK(p.regions[id(second) - 1].kind == model::RegionKind::Section);
    CHECK(p.warnings.empty());
}

// Issue 11: a combined construct's fused calls (POMP2_Parallel_begin_for_enter,
// POMP2_For_exit_parallel_end) are its two events at one clock reading, on
// the master and on a worker, in their first instance (the worker not known
// yet: the general path) and later ones (the common case).
TEST_CASE("POMP2: a combined construct's fused calls are its begin+enter and exit+end events", "[adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle pfor = nullptr;
    const std::string pfor_ctc = "*regionType=parallelfor*sscl=f.c:3:3*escl=f.c:5:5**";
    const core::Ticks starts[] = {1000, 2000};
    // One worker thread for both instances, in turn with the master.
    std::atomic<int> forked{0}, ended{0};
    std::thread team_worker([&] {
        for (int instance = 1; instance <= 2; ++instance) {
            while (forked.load() < instance) std::this_thread::yield();
            const core::Ticks start = starts[instance - 1];
            clock.at(start + 15);
            POMP2_Parallel_begin_for_enter(&pfor, &pfor, CTC(pfor_ctc));
            clock.at(start + 50);
            POMP2_For_exit_parallel_end(&pfor, &pfor);
            ended.store(instance);
        }
    });
    for (int instance = 1; instance <= 2; ++instance) {
        const core::Ticks start = starts[instance - 1];
        POMP2_Task_handle old_task;
        clock.at(start);
        POMP2_Parallel_fork(&pfor, 1, 2, &old_task, CTC(pfor_ctc));
        clock.at(start + 10);
        POMP2_Parallel_begin_for_enter(&pfor, &pfor, CTC(pfor_ctc));
        forked.store(instance);
        while (ended.load() < instance) std::this_thread::yield();
        clock.at(start + 70);
        POMP2_For_exit_parallel_end(&pfor, &pfor);
        clock.at(start + 80);
        POMP2_Parallel_join(&pfor, old_task);
    }
    team_worker.join();
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());
    const auto* team = find_child(p, 0, NodeKind::Region, id_of(pfor));
    REQUIRE(team != nullptr);
    // The loop is the construct's part, folded into its node; the join
    // barrier is the loop's, hung from the construct.
    const auto* barrier = find_child(p, team->id, NodeKind::ImplicitBarrier, id_of(pfor));
    REQUIRE(barrier != nullptr);
    const auto* master = thread_of(*team, 0);
    const auto* worker = thread_of(*team, 1);
    REQUIRE(master != nullptr);
    REQUIRE(worker != nullptr);
    CHECK(master->visits == 2);
    CHECK(master->startup_s == Approx(2 * 10e-9));
    CHECK(master->body_s == Approx(2 * 60e-9));       // from the begin's reading to the end's
    CHECK(master->shutdown_s == Approx(2 * 10e-9));   // the last arrival (the master's, at +70) to the join
    CHECK(worker->visits == 2);
    CHECK(worker->startup_s == Approx(2 * 15e-9));    // from the fork
    CHECK(worker->body_s == Approx(2 * (35e-9 + 20e-9)));  // its part and its wait for the master
    CHECK(worker->inclusive_s == Approx(2 * (15e-9 + 35e-9 + 20e-9)));
    CHECK(thread_of(*barrier, 0)->inclusive_s == Approx(0));
    CHECK(thread_of(*barrier, 1)->visits == 2);
    CHECK(thread_of(*barrier, 1)->inclusive_s == Approx(2 * 20e-9));
    CHECK(p.threads == 2);
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}
