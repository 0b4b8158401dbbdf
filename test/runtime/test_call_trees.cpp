#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "analyses/invariants/invariants.hpp"
#include "event_stream.hpp"

using namespace ompp;
using model::NodeKind;
using test::find_child;
using test::region;
using test::kNs;
using test::thread_of;


TEST_CASE("nested user regions: visits, inclusive and exclusive time", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& outer = region("userRegion", 10, "userRegionName=outer*");
    const auto& inner = region("userRegion", 20, "userRegionName=inner*");
    core::ThreadState& t = m.this_thread();
    t.enter(outer, 1000);
    for (int i = 0; i < 3; ++i) {
        t.enter(inner, 1100 + 100 * i);
        t.exit(inner, 1130 + 100 * i);
    }
    t.exit(outer, 2000);
    clock.at(3000);

    const model::Profile p = m.build_profile();
    const auto* o = find_child(p, 0, NodeKind::Region, outer.info.id);
    REQUIRE(o != nullptr);
    const auto* i = find_child(p, o->id, NodeKind::Region, inner.info.id);
    REQUIRE(i != nullptr);
    CHECK(thread_of(*o, 0)->visits == 1);
    CHECK(thread_of(*o, 0)->inclusive_s == Approx(1000 * kNs));
    CHECK(thread_of(*o, 0)->exclusive_s == Approx(910 * kNs));
    CHECK(thread_of(*i, 0)->visits == 3);
    CHECK(thread_of(*i, 0)->inclusive_s == Approx(90 * kNs));
    CHECK(thread_of(*i, 0)->min_s == Approx(30 * kNs));
    CHECK(thread_of(*i, 0)->max_s == Approx(30 * kNs));
    CHECK(p.wall_time_s == Approx(2000 * kNs));
    CHECK(thread_of(p.nodes[0], 0)->exclusive_s == Approx(1000 * kNs));
    CHECK(p.nodes.size() == 3);
}

TEST_CASE("regions registered twice from equal CTC strings are one region", "[core]") {
    const auto& a = region("for", 300);
    const auto& b = region("for", 300);
    CHECK(&a == &b);
    CHECK(a.info.kind == model::RegionKind::Loop);
    CHECK(a.info.directive.file == "stream.c");
    CHECK(a.info.directive.first_line == 300);
    CHECK(a.info.block_end.last_line == 305);
}

// Only constructs with enter and exit phases (critical, ordered, lock) have
// enterT and exitT: a single's time from its body's end to its exit is none
// of its phases.
TEST_CASE("critical construct phases give enterT, bodyT, exitT, a single's only singleT", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& critical = region("critical", 40, "criticalName=lockA*");
    const auto& single = region("single", 41);
    CHECK(critical.info.name == "lockA");
    core::ThreadState& t = m.this_thread();
    for (const auto* construct : {&critical, &single}) {
        t.enter(*construct, 1000);
        t.begin_body(*construct, 1010);
        t.end_body(*construct, 1110);
        t.exit(*construct, 1115);
    }
    const auto p = m.build_profile();
    const auto& metrics = *thread_of(*find_child(p, 0, NodeKind::Region, critical.info.id), 0);
    CHECK(metrics.enter_s == Approx(10 * kNs));
    CHECK(metrics.body_s == Approx(100 * kNs));
    CHECK(metrics.exit_s == Approx(5 * kNs));
    CHECK(metrics.inclusive_s == Approx(115 * kNs));
    const auto& single_metrics = *thread_of(*find_child(p, 0, NodeKind::Region, single.info.id), 0);
    CHECK(single_metrics.body_s == Approx(100 * kNs));
    CHECK(single_metrics.body_count == 1);
    CHECK(single_metrics.enter_s == 0);
    CHECK(single_metrics.exit_s == 0);
    CHECK(single_metrics.inclusive_s == Approx(115 * kNs));
}

TEST_CASE("lock holds: enterT, bodyT, exitT on the node of the set; an unset ends its own lock's hold", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& locks = region("lock", 50, "lockName=locks*");
    const auto& user = region("userRegion", 60, "userRegionName=u*");
    int a = 0, b = 0;  // two lock objects of one init site
    core::ThreadState& t = m.this_thread();
    t.lock_acquired(locks, &a, 100, 130);
    t.enter(user, 200);
    t.lock_acquired(locks, &b, 210, 215);
    t.lock_released(&a, 300, 304);  // not the newest hold of the region
    t.exit(user, 400);              // holds need not nest with regions
    t.lock_released(&b, 500, 502);
    t.enter(user, 600);
    t.exit(user, 610);
    const auto p = m.build_profile();
    const auto* at_root = find_child(p, 0, NodeKind::Region, locks.info.id);
    const auto* un = find_child(p, 0, NodeKind::Region, user.info.id);
    REQUIRE(at_root != nullptr);
    REQUIRE(un != nullptr);
    const auto* in_user = find_child(p, un->id, NodeKind::Region, locks.info.id);
    REQUIRE(in_user != nullptr);
    const auto& first = *thread_of(*at_root, 0);
    CHECK(first.visits == 1);
    CHECK(first.inclusive_s == Approx(30 * kNs));
    CHECK(first.min_s == Approx(30 * kNs));
    CHECK(first.max_s == Approx(30 * kNs));
    CHECK(first.enter_s == Approx(30 * kNs));
    CHECK(first.body_s == Approx(170 * kNs));
    CHECK(first.body_count == 1);
    CHECK(first.exit_s == Approx(4 * kNs));
    const auto& second = *thread_of(*in_user, 0);
    CHECK(second.visits == 1);
    CHECK(second.enter_s == Approx(5 * kNs));
    CHECK(second.body_s == Approx(285 * kNs));
    CHECK(second.exit_s == Approx(2 * kNs));
    // A lock's visit is in the control flow like any other: entered after
    // its parent or the sibling left before, and left before the next one.
    const auto count = [](const model::Node& node, std::uint32_t from) -> std::uint64_t {
        for (const auto& pred : node.predecessors) {
            if (pred.node == from) return pred.count;
        }
        return 0;
    };
    CHECK(count(*at_root, 0) == 1);
    CHECK(count(*un, at_root->id) == 1);
    CHECK(count(*un, un->id) == 1);
    CHECK(count(*in_user, un->id) == 1);
    CHECK(thread_of(*un, 0)->exclusive_s == Approx((210 - 5) * kNs));
}

TEST_CASE("an end without begin is a warning naming the region, measurement carries on", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& user = region("userRegion", 50, "userRegionName=solve*");
    core::ThreadState& t = m.this_thread();
    t.exit(user, 1000);
    t.enter(user, 1100);
    t.exit(user, 1200);
    t.exit(user, 1300);
    const auto p = m.build_profile();
    REQUIRE(p.warnings.size() == 1);
    CHECK(p.warnings[0].occurrences == 2);
    CHECK(p.warnings[0].region == user.info.id);
    CHECK_THAT(p.warnings[0].text, Catch::Contains("stream.c (50-55)"));
    CHECK(thread_of(*find_child(p, 0, NodeKind::Region, user.info.id), 0)->visits == 1);
}

TEST_CASE("the end of an enclosing region closes regions left open (cancellation)", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& parallel = region("parallel", 60);
    const auto& loop = region("for", 62);
    core::ThreadState& t = m.this_thread();
    t.fork(parallel, 1000, 1);
    t.parallel_begin(parallel, 1010, {});
    t.enter(loop, 1020);  // cancelled: no exit
    t.parallel_end(parallel, 1100);
    t.join(parallel, 1110);
    CHECK(t.open_frames() == 0);
    const auto p = m.build_profile();
    const auto* par = find_child(p, 0, NodeKind::Region, parallel.info.id);
    REQUIRE(par != nullptr);
    const auto& pm = *thread_of(*par, 0);
    CHECK(pm.startup_s == Approx(10 * kNs));
    CHECK(pm.body_s == Approx(90 * kNs));
    CHECK(pm.shutdown_s == Approx(10 * kNs));
    const auto* lp = find_child(p, par->id, NodeKind::Region, loop.info.id);
    REQUIRE(lp != nullptr);
    CHECK(thread_of(*lp, 0)->inclusive_s == Approx(80 * kNs));
    REQUIRE(p.warnings.size() == 1);
    CHECK_THAT(p.warnings[0].text, Catch::Contains("left open"));
}

// The instrumenter splits `parallel for` into parallel + for on one handle
// (docs/instrumenter.md): fork, begin, For_enter, implicit barrier,
// For_exit, end, join.  The profile has one node for the construct.
TEST_CASE("a combined parallel for is one node: execC = instances, the barrier its child", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& pfor = region("parallelfor", 60);
    const auto& inner = region("userRegion", 62, "userRegionName=work*");
    core::ThreadState& master = m.this_thread();
    constexpr std::uint64_t kKey = 5;
    constexpr int kInstances = 3;
    for (int i = 0; i < kInstances; ++i) {
        const core::Ticks t0 = 1000 + 1000 * i;
        master.fork(pfor, t0, kKey);
        master.parallel_begin(pfor, t0 + 10, {kKey, 1});
        master.enter(pfor, t0 + 20);
        master.enter(inner, t0 + 30);
        master.exit(inner, t0 + 530);
        master.enter(pfor, t0 + 600, NodeKind::ImplicitBarrier);
        master.exit(pfor, t0 + 700, NodeKind::ImplicitBarrier);
        master.exit(pfor, t0 + 710);
        master.parallel_end(pfor, t0 + 720);
        master.join(pfor, t0 + 750);
    }
    clock.at(5000);
    const auto p = m.build_profile();
    const auto* node = find_child(p, 0, NodeKind::Region, pfor.info.id);
    REQUIRE(node != nullptr);
    const auto& metrics = *thread_of(*node, 0);
    CHECK(metrics.visits == kInstances);
    CHECK(metrics.inclusive_s == Approx(kInstances * 750 * kNs));
    CHECK(metrics.startup_s == Approx(kInstances * 10 * kNs));
    CHECK(metrics.shutdown_s == Approx(kInstances * 30 * kNs));
    // Loop overhead (enter, after the barrier) and the parallel part's own
    // time: everything but the user region and the barrier.
    CHECK(metrics.exclusive_s == Approx(kInstances * 150 * kNs));
    CHECK(find_child(p, node->id, NodeKind::Region, pfor.info.id) == nullptr);
    const auto* barrier = find_child(p, node->id, NodeKind::ImplicitBarrier, pfor.info.id);
    REQUIRE(barrier != nullptr);
    CHECK(thread_of(*barrier, 0)->visits == kInstances);
    const auto* work = find_child(p, node->id, NodeKind::Region, inner.info.id);
    REQUIRE(work != nullptr);
    CHECK(thread_of(*work, 0)->visits == kInstances);
    // Control flow: the user region was entered right after the construct.
    REQUIRE(work->predecessors.size() == 1);
    CHECK(work->predecessors[0].node == node->id);
    CHECK(work->predecessors[0].count == kInstances);
    CHECK(p.nodes.size() == 4);
    CHECK(analyses::check_invariants(p).empty());
}

TEST_CASE("a combined parallel sections construct keeps its sections' sectT and sectC", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& psections = region("parallelsections", 90);
    core::ThreadState& t = m.this_thread();
    t.fork(psections, 1000, 7);
    t.parallel_begin(psections, 1010, {7, 1});
    t.enter(psections, 1020);
    for (core::Ticks start : {1030, 1130}) {
        t.begin_body(psections, start);
        t.end_body(psections, start + 80);
    }
    t.enter(psections, 1300, NodeKind::ImplicitBarrier);
    t.exit(psections, 1310, NodeKind::ImplicitBarrier);
    t.exit(psections, 1320);
    t.parallel_end(psections, 1330);
    t.join(psections, 1340);
    const auto p = m.build_profile();
    const auto* node = find_child(p, 0, NodeKind::Region, psections.info.id);
    REQUIRE(node != nullptr);
    CHECK(thread_of(*node, 0)->visits == 1);
    CHECK(thread_of(*node, 0)->body_count == 2);
    CHECK(thread_of(*node, 0)->body_s == Approx(160 * kNs));
    CHECK(find_child(p, node->id, NodeKind::ImplicitBarrier, psections.info.id) != nullptr);
    CHECK(p.nodes.size() == 3);
}

TEST_CASE("worker threads' trees hang under the fork point, nested teams too", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& outer = region("parallel", 70);
    const auto& loop = region("for", 72);
    const auto& inner = region("parallel", 80);
    core::ThreadState& master = m.this_thread();
    constexpr std::uint64_t kMasterKey = 11;
    constexpr std::uint64_t kWorkerKey = 22;
    master.fork(outer, 1000, kMasterKey);
    master.parallel_begin(outer, 1010, {kMasterKey, 1});
    std::thread worker([&] {
        core::ThreadState& w = m.this_thread();
        w.parallel_begin(outer, 1020, {kMasterKey, 1});
        w.enter(loop, 1030);
        w.exit(loop, 1080);
        // The worker forks a nested team with one more thread.
        w.fork(inner, 1085, kWorkerKey);
        w.parallel_begin(inner, 1086, {kWorkerKey, 2});
        std::thread nested([&] {
            core::ThreadState& n = m.this_thread();
            n.parallel_begin(inner, 1090, {kWorkerKey, 2});
            n.parallel_end(inner, 1095);
        });
        nested.join();
        w.parallel_end(inner, 1096);
        w.join(inner, 1097);
        w.parallel_end(outer, 1100);
    });
    worker.join();
    master.enter(loop, 1030);
    master.exit(loop, 1090);
    master.parallel_end(outer, 1100);
    master.join(outer, 1105);

    const auto p = m.build_profile();
    const auto* par = find_child(p, 0, NodeKind::Region, outer.info.id);
    REQUIRE(par != nullptr);
    REQUIRE(par->threads.size() == 2);
    CHECK(thread_of(*par, 0)->inclusive_s == Approx(105 * kNs));
    // The worker's part starts at the fork.
    CHECK(thread_of(*par, 1)->inclusive_s == Approx(100 * kNs));
    CHECK(thread_of(*par, 1)->startup_s == Approx(20 * kNs));
    // Released at the last arrival: the rest up to the join is the master's.
    CHECK(thread_of(*par, 1)->shutdown_s == Approx(0));
    CHECK(thread_of(*par, 0)->shutdown_s == Approx(5 * kNs));
    const auto* lp = find_child(p, par->id, NodeKind::Region, loop.info.id);
    REQUIRE(lp != nullptr);
    CHECK(lp->threads.size() == 2);
    const auto* nested = find_child(p, par->id, NodeKind::Region, inner.info.id);
    REQUIRE(nested != nullptr);
    CHECK(nested->threads.size() == 2);  // the worker (master of the nested team) and its worker
    // Its part ends when its team's master arrives at the join barrier
    // (1096): 1 ns of waiting there; the shutdown up to the join is the
    // nested team's master's.
    CHECK(thread_of(*nested, 2)->inclusive_s == Approx(11 * kNs));
    CHECK(thread_of(*nested, 2)->shutdown_s == Approx(0));
    CHECK(p.threads_info.at(2).parent_thread == 1);
    CHECK(p.threads_info.at(2).team_level == 2);
    // Nothing of a worker lands under the root.
    for (const auto& node : p.nodes) {
        if (node.parent == 0u) CHECK(node.region == outer.info.id);
    }
}

// One instance of parallel region `par` with a team of two: this thread
// forks at 1000 and begins at `master_begin`; `worker_part` runs the
// worker's events on a thread of its own, to their end, before this returns
// the master, whose end and join the test writes.
template <class WorkerPart>
core::ThreadState& team_of_two(core::Measurement& m, const core::RegionRecord& par, std::uint64_t key,
                               core::Ticks master_begin, WorkerPart worker_part) {
    core::ThreadState& master = m.this_thread();
    master.fork(par, 1000, key, 2);
    master.parallel_begin(par, master_begin, {key, 1});
    std::thread worker([&] { worker_part(m.this_thread()); });
    worker.join();
    return master;
}

// No barrier of ompp's at a region's end (issue 11): the runtime's join
// barrier is the region's implicit barrier, and the master computes each
// thread's wait there at the join from the arrivals (Parallel_end).
TEST_CASE("the join barrier: a thread waits from its arrival to the last one's, less tasks run meanwhile", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 300);
    const auto& task = region("task", 302);
    constexpr std::uint64_t kKey = 31;
    core::ThreadState& master = team_of_two(m, par, kKey, 1010, [&](core::ThreadState& w) {
        w.parallel_begin(par, 1020, {kKey, 1});
        w.parallel_end(par, 1050);  // arrives first, then runs a task in the join barrier
        w.task_begin(task, w.new_task_handle(), 1060);
        w.task_end(task, 1100);
    });
    master.parallel_end(par, 1200);  // the last arrival
    master.join(par, 1210);

    const auto p = m.build_profile();
    const auto* node = find_child(p, 0, NodeKind::Region, par.info.id);
    REQUIRE(node != nullptr);
    const auto* barrier = find_child(p, node->id, NodeKind::ImplicitBarrier, par.info.id);
    REQUIRE(barrier != nullptr);
    REQUIRE(barrier->threads.size() == 2);
    CHECK(thread_of(*barrier, 0)->visits == 1);
    CHECK(thread_of(*barrier, 0)->inclusive_s == Approx(0));
    CHECK(thread_of(*barrier, 1)->visits == 1);
    CHECK(thread_of(*barrier, 1)->inclusive_s == Approx(110 * kNs));  // 1050 -> 1200, less the 40 ns task
    const auto& worker_part = *thread_of(*node, 1);
    CHECK(worker_part.visits == 1);
    CHECK(worker_part.inclusive_s == Approx(160 * kNs));  // from the fork, its work and its wait
    CHECK(worker_part.body_s == Approx(140 * kNs));
    CHECK(worker_part.shutdown_s == Approx(0));  // released at the last arrival
    CHECK(thread_of(*node, 0)->shutdown_s == Approx(10 * kNs));
    CHECK(thread_of(*node, 0)->body_s == Approx(190 * kNs));
    CHECK(analyses::check_invariants(p).empty());
}

// A master held up after the last arrival (descheduled, 2 cores and 8
// threads) must not give its workers that time as shutdown: they were
// released and their part of the region ended.  Otherwise a worker's
// overheads exceeded its part, and a nested region served by recycled
// worker states failed "overheads of R <= its total" (real programs,
// nesting.c at 4 threads, about 1 run in 50 under load).
TEST_CASE("the join barrier: a thread's overheads fit in its part when the master joins late", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 340);
    constexpr std::uint64_t kKey = 61;
    core::ThreadState& master = team_of_two(m, par, kKey, 1005, [&](core::ThreadState& w) {
        w.parallel_begin(par, 1010, {kKey, 1});
        w.parallel_end(par, 1020);
    });
    master.parallel_end(par, 1030);  // the last arrival releases the worker
    master.join(par, clock.at(2000));

    const auto p = m.build_profile();
    const auto* node = find_child(p, 0, NodeKind::Region, par.info.id);
    REQUIRE(node != nullptr);
    const auto* barrier = find_child(p, node->id, NodeKind::ImplicitBarrier, par.info.id);
    REQUIRE(barrier != nullptr);
    const auto& part = *thread_of(*node, 1);
    CHECK(part.inclusive_s == Approx(30 * kNs));  // the fork -> the release
    CHECK(part.startup_s == Approx(10 * kNs));
    CHECK(thread_of(*barrier, 1)->inclusive_s == Approx(10 * kNs));
    CHECK(part.shutdown_s == Approx(0));
    CHECK(part.startup_s + part.shutdown_s + thread_of(*barrier, 1)->inclusive_s <= part.inclusive_s + 1e-12);
    CHECK(thread_of(*node, 0)->shutdown_s == Approx(970 * kNs));
    CHECK(analyses::check_invariants(p) == std::vector<std::string>{});
}

// Work a worker does in the join barrier outside any task it was told of
// (a C taskloop's tasks are not measured individually) lands below its root;
// the root's time covers its part of the region too (both are root-level).
TEST_CASE("the join barrier: a worker's root covers its region part and its untasked work there", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 320);
    const auto& atomic = region("atomic", 322);
    constexpr std::uint64_t kKey = 51;
    core::ThreadState& master = team_of_two(m, par, kKey, 1010, [&](core::ThreadState& w) {
        w.parallel_begin(par, 1020, {kKey, 1});
        w.parallel_end(par, 1050);
        w.enter(atomic, 1060);
        w.exit(atomic, 1070);
    });
    master.parallel_end(par, 1200);
    master.join(par, 1210);

    const auto p = m.build_profile();
    const auto* node = find_child(p, 0, NodeKind::Region, par.info.id);
    REQUIRE(node != nullptr);
    const auto* untasked = find_child(p, 0, NodeKind::Region, atomic.info.id);
    REQUIRE(untasked != nullptr);
    const auto* root = thread_of(p.nodes[0], 1);
    REQUIRE(root != nullptr);
    CHECK(root->inclusive_s == Approx(thread_of(*node, 1)->inclusive_s + thread_of(*untasked, 1)->inclusive_s));
    CHECK(analyses::check_invariants(p).empty());
}

TEST_CASE("the join barrier: a barrier the instrumented code measured is not measured twice", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 310);
    core::ThreadState& t = m.this_thread();
    t.fork(par, 1000, 41, 1);
    t.parallel_begin(par, 1010, {41, 1});
    t.enter(par, 1100, NodeKind::ImplicitBarrier);  // OPARI2's explicit barrier
    t.exit(par, 1150, NodeKind::ImplicitBarrier);
    t.parallel_end(par, 1160);
    t.join(par, 1170);
    const auto p = m.build_profile();
    const auto* node = find_child(p, 0, NodeKind::Region, par.info.id);
    REQUIRE(node != nullptr);
    const auto* barrier = find_child(p, node->id, NodeKind::ImplicitBarrier, par.info.id);
    REQUIRE(barrier != nullptr);
    CHECK(thread_of(*barrier, 0)->visits == 1);
    CHECK(thread_of(*barrier, 0)->inclusive_s == Approx(50 * kNs));
    CHECK(thread_of(*node, 0)->shutdown_s == Approx(10 * kNs));
}

TEST_CASE("control flow: predecessors are the parent or the sibling exited just before", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& parent = region("userRegion", 90, "userRegionName=p*");
    const auto& a = region("userRegion", 91, "userRegionName=a*");
    const auto& b = region("userRegion", 92, "userRegionName=b*");
    core::ThreadState& t = m.this_thread();
    core::Ticks now = 1000;
    for (int round = 0; round < 2; ++round) {
        t.enter(parent, ++now);
        for (int i = 0; i < 3; ++i) {
            t.enter(a, ++now);
            t.exit(a, ++now);
            t.enter(b, ++now);
            t.exit(b, ++now);
        }
        t.exit(parent, ++now);
    }
    const auto p = m.build_profile();
    const auto* pn = find_child(p, 0, NodeKind::Region, parent.info.id);
    const auto* an = find_child(p, pn->id, NodeKind::Region, a.info.id);
    const auto* bn = find_child(p, pn->id, NodeKind::Region, b.info.id);
    const auto count = [](const model::Node& node, std::uint32_t from) -> std::uint64_t {
        for (const auto& pred : node.predecessors) {
            if (pred.node == from) return pred.count;
        }
        return 0;
    };
    CHECK(count(*an, pn->id) == 2);  // first child after the parent, each round
    CHECK(count(*an, bn->id) == 4);
    CHECK(count(*bn, an->id) == 6);
    CHECK(count(*pn, 0) == 1);
    CHECK(count(*pn, pn->id) == 1);  // the second round follows the first
}


// A node's recent children are found by a key of region and kind
// (ThreadState::child_key): children of one region and different kinds,
// entered in turn, stay apart.
TEST_CASE("control flow: children of one region and different kinds are different nodes", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& loop = region("for", 95);
    core::ThreadState& t = m.this_thread();
    core::Ticks now = 1000;
    for (int round = 0; round < 3; ++round) {
        t.enter(loop, ++now);
        t.exit(loop, ++now);
        t.enter(loop, ++now, NodeKind::ImplicitBarrier);
        t.exit(loop, ++now, NodeKind::ImplicitBarrier);
    }
    const auto p = m.build_profile();
    const auto* construct = find_child(p, 0, NodeKind::Region, loop.info.id);
    const auto* barrier = find_child(p, 0, NodeKind::ImplicitBarrier, loop.info.id);
    REQUIRE(construct != nullptr);
    REQUIRE(barrier != nullptr);
    CHECK(construct != barrier);
    CHECK(thread_of(*construct, 0)->visits == 3);
    CHECK(thread_of(*barrier, 0)->visits == 3);
    CHECK(p.nodes.size() == 3);
    CHECK(t.warnings().empty());
}
// An enter or exit takes its common case only where its node and control-flow
// entry are in the hit caches (ThreadState::push_cached), and the general
// form where they are not: here five children of one node (one more than
// its cache holds) entered in turn, and a region entered after each of them
// (one more than two predecessors), so that the events alternate between
// the two forms, and every visit and edge counts once.
TEST_CASE("control flow: events beyond the hit caches count as those in them", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& parent = region("userRegion", 80, "userRegionName=parent*");
    const auto& after_each = region("userRegion", 81, "userRegionName=after*");
    std::vector<const core::RegionRecord*> children;
    for (int i = 0; i < 5; ++i) children.push_back(&region("userRegion", 82 + i, fmt::format("userRegionName=c{}*", i)));
    core::ThreadState& t = m.this_thread();
    constexpr int kRounds = 4;
    core::Ticks now = 1000;
    t.enter(parent, now);
    for (int round = 0; round < kRounds; ++round) {
        for (const auto* child : children) {
            t.enter(*child, now += 1);
            t.exit(*child, now += 2);
            t.enter(after_each, now += 1);
            t.exit(after_each, now += 3);
        }
    }
    t.exit(parent, now += 1);
    const auto p = m.build_profile();
    const auto* p_node = find_child(p, 0, NodeKind::Region, parent.info.id);
    REQUIRE(p_node != nullptr);
    const auto* a_node = find_child(p, p_node->id, NodeKind::Region, after_each.info.id);
    REQUIRE(a_node != nullptr);
    const auto count = [](const model::Node& node, std::uint32_t from) -> std::uint64_t {
        for (const auto& pred : node.predecessors) {
            if (pred.node == from) return pred.count;
        }
        return 0;
    };
    CHECK(thread_of(*a_node, 0)->visits == 5 * kRounds);
    CHECK(thread_of(*a_node, 0)->inclusive_s == Approx(3 * 5 * kRounds * kNs));
    for (std::size_t i = 0; i < children.size(); ++i) {
        const auto* c_node = find_child(p, p_node->id, NodeKind::Region, children[i]->info.id);
        REQUIRE(c_node != nullptr);
        CHECK(thread_of(*c_node, 0)->visits == kRounds);
        CHECK(thread_of(*c_node, 0)->inclusive_s == Approx(2 * kRounds * kNs));
        CHECK(count(*a_node, c_node->id) == kRounds);
        CHECK(count(*c_node, a_node->id) == (i == 0 ? kRounds - 1 : kRounds));
        CHECK(count(*c_node, p_node->id) == (i == 0 ? 1 : 0));
    }
    CHECK(p.nodes.size() == 1 + 1 + 1 + children.size());
    CHECK(t.warnings().empty());
}
TEST_CASE("control flow: a worker enters a parallel region right after the fork point", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& user = region("userRegion", 95, "userRegionName=setup*");
    const auto& first = region("parallel", 96);
    const auto& second = region("parallel", 97);
    core::ThreadState& master = m.this_thread();
    constexpr std::uint64_t kFirstKey = 31;
    constexpr std::uint64_t kSecondKey = 32;
    master.enter(user, 1000);
    master.fork(first, 1001, kFirstKey);
    master.parallel_begin(first, 1002, {kFirstKey, 1});
    std::thread([&] {
        core::ThreadState& w = m.this_thread();
        w.parallel_begin(first, 1003, {kFirstKey, 1});
        w.parallel_end(first, 1004);
    }).join();
    master.parallel_end(first, 1005);
    master.join(first, 1006);
    master.exit(user, 1007);
    master.fork(second, 1008, kSecondKey);
    master.parallel_begin(second, 1009, {kSecondKey, 1});
    std::thread([&] {
        core::ThreadState& w = m.this_thread();
        w.parallel_begin(second, 1010, {kSecondKey, 1});
        w.parallel_end(second, 1011);
    }).join();
    master.parallel_end(second, 1012);
    master.join(second, 1013);

    const auto p = m.build_profile();
    const auto* un = find_child(p, 0, NodeKind::Region, user.info.id);
    REQUIRE(un != nullptr);
    const auto* fn = find_child(p, un->id, NodeKind::Region, first.info.id);
    const auto* sn = find_child(p, 0, NodeKind::Region, second.info.id);
    REQUIRE(fn != nullptr);
    REQUIRE(sn != nullptr);
    // Every thread entered each region right after its parent: the first
    // region's parent is the user region, the second's the root.  (The
    // master's second entry follows its sibling, the user region.)
    const auto preds = [](const model::Node& node) {
        std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>> list;
        for (const auto& pred : node.predecessors) list.emplace_back(pred.node, pred.thread, pred.count);
        std::sort(list.begin(), list.end());
        return list;
    };
    using Entry = std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>;
    CHECK(preds(*fn) == std::vector<Entry>{{un->id, 0, 1}, {un->id, 1, 1}});
    // The second team's worker is another thread (a new std::thread).
    REQUIRE(sn->threads.size() == 2);
    const std::uint32_t worker = sn->threads[0].thread == 0 ? sn->threads[1].thread : sn->threads[0].thread;
    CHECK(preds(*sn) == std::vector<Entry>{{0, worker, 1}, {un->id, 0, 1}});
}

TEST_CASE("memory grows with call paths, not with events", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& a = region("userRegion", 95, "userRegionName=hot*");
    const auto& task = region("task", 96);
    core::ThreadState& t = m.this_thread();
    const auto run = [&](int n) {
        for (int i = 0; i < n; ++i) {
            t.enter(a, 2 * i);
            t.exit(a, 2 * i + 1);
            t.task_begin(task, t.new_task_handle(), 2 * i + 1);
            t.task_end(task, 2 * i + 1);
        }
    };
    run(100);
    const auto nodes_after_warmup = t.live_nodes();
    run(100000);
    CHECK(t.live_nodes() == nodes_after_warmup);
}

TEST_CASE("threads registering the same handle at once get one region", "[core][threads]") {
    static void* handle = nullptr;
    const std::string body = "*regionType=critical*sscl=race.c:7:7*escl=race.c:9:9*criticalName=r**";
    const std::string ctc = std::to_string(body.size()) + body;
    std::vector<const core::RegionRecord*> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < seen.size(); ++i) {
        threads.emplace_back([&, i] {
            seen[i] = &core::RegionRegistry::resolve(&handle, ctc.c_str(), model::RegionKind::UserRegion);
        });
    }
    for (auto& thread : threads) thread.join();
    for (const auto* record : seen) CHECK(record == seen[0]);
    CHECK(seen[0]->info.name == "r");
    CHECK(__atomic_load_n(&handle, __ATOMIC_ACQUIRE) == seen[0]);
}

TEST_CASE("a new worker thread carries on with the state parked at its team position", "[core][threads]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 990);
    const auto& loop = region("for", 992);
    core::ThreadState& master = m.this_thread();
    constexpr std::uint64_t kMasterKey = 77;
    constexpr std::array<std::uint64_t, 2> kPositions{1001, 1002};
    constexpr int kTeams = 50;
    // The states each team's workers ran with, by team position.
    std::array<std::vector<const core::ThreadState*>, 2> states;
    for (int team = 0; team < kTeams; ++team) {
        const core::Ticks start = 10000 + 1000 * static_cast<core::Ticks>(team);
        master.fork(par, start, kMasterKey, 3);
        master.parallel_begin(par, start, {kMasterKey, 1});
        // Both workers run at once; each is a new OS thread that ends with its team.
        std::vector<std::thread> workers;
        for (std::size_t p = 0; p < kPositions.size(); ++p) {
            workers.emplace_back([&, p] {
                core::ThreadState& w = m.this_worker([&] { return kPositions[p]; });
                states[p].push_back(&w);
                w.parallel_begin(par, start + 10, {kMasterKey, 1});
                w.enter(loop, start + 20);
                w.exit(loop, start + 30);
                w.parallel_end(par, start + 40);
            });
        }
        for (auto& worker : workers) worker.join();
        master.parallel_end(par, start + 50);
        master.join(par, start + 60);
    }
    for (const auto& at_position : states) {
        CHECK(std::all_of(at_position.begin(), at_position.end(),
                          [&](const core::ThreadState* s) { return s == at_position.front(); }));
    }
    CHECK(states[0].front() != states[1].front());
    std::size_t threads = 0;
    m.for_each_thread([&](const core::ThreadState&) { ++threads; });
    CHECK(threads == 3);
    clock.at(200000);
    const auto p = m.build_profile();
    const auto* par_node = find_child(p, 0, NodeKind::Region, par.info.id);
    REQUIRE(par_node != nullptr);
    const auto* loop_node = find_child(p, par_node->id, NodeKind::Region, loop.info.id);
    REQUIRE(loop_node != nullptr);
    REQUIRE(loop_node->threads.size() == 2);
    for (const auto& metrics : loop_node->threads) CHECK(metrics.visits == kTeams);
    CHECK(analyses::check_invariants(p).empty());
}

TEST_CASE("a worker thread that ends inside a region keeps its state; unknown positions take none", "[core][threads]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& loop = region("for", 992);
    const auto at_position = [&] { return std::uint64_t{1001}; };
    const core::ThreadState* first = nullptr;
    std::thread([&] { first = &m.this_worker(at_position); }).join();
    std::thread([&] { CHECK(&m.this_worker(at_position) == first); }).join();
    std::thread([&] { m.this_worker(at_position).enter(loop, 100); }).join();
    const core::ThreadState* fresh = nullptr;
    std::thread([&] { fresh = &m.this_worker(at_position); }).join();
    CHECK(fresh != first);
    std::thread([&] { CHECK(&m.this_thread() != fresh); }).join();
    std::size_t threads = 0;
    m.for_each_thread([&](const core::ThreadState&) { ++threads; });
    CHECK(threads == 3);
}

// Program end (Measurement::stop) while other threads still measure.
TEST_CASE("after stop, a thread's later events are refused and its open regions closed once", "[core][end]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& work = region("userRegion", 40, "userRegionName=work*");
    std::atomic<int> step{0};
    std::thread worker([&] {
        core::ThreadState& t = m.this_thread();
        t.enter(work, 100);
        step = 1;
        while (step != 2) std::this_thread::yield();
        t.exit(work, 900);  // after the end: refused, no unbalanced-end warning
        t.enter(work, 950);
        step = 3;
    });
    while (step != 1) std::this_thread::yield();
    m.stop();
    m.close_open_regions(500);
    step = 2;
    while (step != 3) std::this_thread::yield();
    worker.join();
    clock.at(1000);
    const model::Profile p = m.build_profile();
    const auto* node = find_child(p, 0, NodeKind::Region, work.info.id);
    REQUIRE(node != nullptr);
    REQUIRE(node->threads.size() == 1);
    CHECK(node->threads[0].visits == 1);
    CHECK(node->threads[0].inclusive_s == Approx(400 * kNs));
    REQUIRE(p.warnings.size() == 1);
    CHECK_THAT(p.warnings[0].text, Catch::Contains("still open at program end"));
}

namespace {
// Blocks the first read after `armed` until released: a thread inside an event.
struct StallingReader : core::CounterReader {
    std::atomic<bool>& armed;
    std::atomic<bool>& inside;
    std::atomic<bool>& release;
    StallingReader(std::atomic<bool>& a, std::atomic<bool>& i, std::atomic<bool>& r) : armed(a), inside(i), release(r) {}
    void read(core::CounterValues& values) override {
        values.fill(0);
        if (!armed) return;
        inside = true;
        while (!release) std::this_thread::yield();
    }
};
}  // namespace

TEST_CASE("stop waits a bounded time for an event in flight and names the thread it left", "[core][end]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    std::atomic<bool> armed{false}, inside{false}, release{false};
    m.set_counter_reader_factory([&] { return std::make_unique<StallingReader>(armed, inside, release); });
    const auto& outer = region("userRegion", 50, "userRegionName=stalled-outer*");
    const auto& inner = region("userRegion", 51, "userRegionName=stalled-inner*");
    std::uint32_t stalled_id = 0;
    std::thread worker([&] {
        core::ThreadState& t = m.this_thread();
        stalled_id = t.id();
        t.enter(outer, 100);
        armed = true;
        t.enter(inner, 200);  // stalls inside the event
    });
    while (!inside) std::this_thread::yield();
    const auto started = std::chrono::steady_clock::now();
    m.stop();
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
    m.close_open_regions(500);  // leaves the stalled thread alone
    release = true;
    worker.join();
    const model::Profile p = m.build_profile();
    const auto named = std::count_if(p.warnings.begin(), p.warnings.end(), [&](const model::Warning& w) {
        return w.text.find(fmt::format("thread {} was inside an event", stalled_id)) != std::string::npos;
    });
    CHECK(named == 1);
}

// Forkers and workers keep their fork-table slot while the key stays the
// same (ForkTable): a thread that forks under another key, and a worker that
// joins a team forked under another key, must use that key's slot.
TEST_CASE("a worker finds its team's fork when the forker's key changes between teams", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& first = region("parallel", 300);
    const auto& second = region("parallel", 310);
    constexpr std::uint64_t kKeyA = 41;
    constexpr std::uint64_t kKeyB = 42;
    struct Team {
        const core::RegionRecord* region;
        std::uint64_t key;
        core::Ticks fork;
    };
    const Team teams[] = {{&first, kKeyA, 1000}, {&second, kKeyB, 2000}, {&first, kKeyA, 3000}, {&second, kKeyB, 4000}};
    core::ThreadState& master = m.this_thread();
    std::atomic<int> forked{0}, ended{0};
    std::thread worker([&] {
        core::ThreadState& w = m.this_thread();
        for (int i = 1; i <= 4; ++i) {
            while (forked.load() < i) std::this_thread::yield();
            const Team& team = teams[i - 1];
            w.parallel_begin(*team.region, team.fork + 10 + i, {team.key, 1});
            w.parallel_end(*team.region, team.fork + 50);
            ended.store(i);
        }
    });
    for (int i = 1; i <= 4; ++i) {
        const Team& team = teams[i - 1];
        master.fork(*team.region, team.fork, team.key);
        master.parallel_begin(*team.region, team.fork + 5, {team.key, 1});
        forked.store(i);
        while (ended.load() < i) std::this_thread::yield();
        master.parallel_end(*team.region, team.fork + 60);
        master.join(*team.region, team.fork + 70);
    }
    worker.join();

    const auto p = m.build_profile();
    for (const auto* region : {&first, &second}) {
        const auto* node = find_child(p, 0, NodeKind::Region, region->info.id);
        REQUIRE(node != nullptr);
        REQUIRE(node->threads.size() == 2);  // the worker's parts hang under their own team's fork
        CHECK(thread_of(*node, 1)->visits == 2);
    }
    // Startup from each team's own fork: 11 + 13 for the first, 12 + 14 for the second.
    CHECK(thread_of(*find_child(p, 0, NodeKind::Region, first.info.id), 1)->startup_s == Approx(24 * kNs));
    CHECK(thread_of(*find_child(p, 0, NodeKind::Region, second.info.id), 1)->startup_s == Approx(26 * kNs));
    for (const auto& violation : analyses::check_invariants(p)) FAIL_CHECK(violation);
    CHECK(p.warnings.empty());
}
