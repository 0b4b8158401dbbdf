// A parallel region instance's cost (issue 11): a worker hands every figure
// of its part over at its arrival and the master records them at the join;
// a combined parallel loop's fused calls leave the loop part out.  Neither
// may change a figure.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "analyses/invariants/invariants.hpp"
#include "event_stream.hpp"

using namespace ompp;
using model::NodeKind;
using test::find_child;
using test::kNs;
using test::region;
using test::thread_of;

namespace {

// Waits until `flag` reaches `value`.
void await(const std::atomic<int>& flag, int value) {
    while (flag.load() < value) std::this_thread::yield();
}

// Runs `events` on the state of a new thread (a team's worker); returns
// the thread's id.
template <class Events>
std::uint32_t on_new_thread(core::Measurement& m, Events events) {
    std::uint32_t id = 0;
    std::thread([&] {
        core::ThreadState& thread = m.this_thread();
        id = thread.id();
        events(thread);
    }).join();
    return id;
}

}  // namespace

// Teams of three, two and three threads in turn, the first worker forking a
// nested team in the last instance; every event at a given time.  Each
// worker's join wait (its arrival to the last one's), body and visit must be
// what the master recorded at the join from the worker's hand-over, and
// nothing of a worker's visit shows before the join, not even its startup
// (the master's to compute, from the fork's time).
TEST_CASE("team hand-over: workers' waits, bodies and visits exact over teams of different sizes, nested too",
          "[core][threads]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& outer = region("parallel", 500);
    const auto& inner = region("parallel", 510);
    constexpr std::uint64_t kMasterKey = 41;
    constexpr std::uint64_t kNestedKey = 42;
    core::ThreadState& master = m.this_thread();
    std::atomic<int> forked{0}, a_done{0}, b_done{0};
    std::uint32_t a_id = 0, b_id = 0, c_id = 0;
    const auto start = [](int instance) { return static_cast<core::Ticks>(1000 * instance); };
    std::thread worker_a([&] {
        core::ThreadState& a = m.this_thread();
        a_id = a.id();
        for (int i = 1; i <= 3; ++i) {
            await(forked, i);
            const core::Ticks s = start(i);
            if (i == 2) {
                a.parallel_begin(outer, s + 15, {kMasterKey, 1});
                a.parallel_end(outer, s + 90);  // the last arrival
            } else {
                a.parallel_begin(outer, s + 20, {kMasterKey, 1});
                if (i == 3) {
                    a.fork(inner, s + 25, kNestedKey, 2);
                    a.parallel_begin(inner, s + 26, {kNestedKey, 2});
                    c_id = on_new_thread(m, [&](core::ThreadState& c) {
                        c.parallel_begin(inner, s + 28, {kNestedKey, 2});
                        c.parallel_end(inner, s + 40);
                    });
                    a.parallel_end(inner, s + 45);
                    a.join(inner, s + 47);
                }
                a.parallel_end(outer, s + 60);
            }
            a_done.store(i);
        }
    });
    std::thread worker_b([&] {
        core::ThreadState& b = m.this_thread();
        b_id = b.id();
        for (int i : {1, 3}) {
            await(forked, i);
            const core::Ticks s = start(i);
            b.parallel_begin(outer, s + 30, {kMasterKey, 1});
            b.parallel_end(outer, s + 80);
            b_done.store(i);
        }
    });
    for (int i = 1; i <= 3; ++i) {
        const bool three = i != 2;
        const core::Ticks s = start(i);
        master.fork(outer, s, kMasterKey, three ? 3 : 2);
        master.parallel_begin(outer, s + 10, {kMasterKey, 1});
        forked.store(i);
        await(a_done, i);
        if (three) await(b_done, i);
        master.parallel_end(outer, three ? s + 100 : s + 50);
        if (i == 1) {
            // Both workers arrived, the master did not join yet.
            const auto mid = m.build_profile();
            const auto* team = find_child(mid, 0, NodeKind::Region, outer.info.id);
            REQUIRE(team != nullptr);
            for (std::uint32_t worker : {a_id, b_id}) {
                const auto* part = thread_of(*team, worker);
                REQUIRE(part != nullptr);
                CHECK(part->visits == 0);
                CHECK(part->body_s == 0);
                CHECK(part->inclusive_s == 0);
                CHECK(part->startup_s == 0);
            }
        }
        master.join(outer, s + 120);
    }
    worker_a.join();
    worker_b.join();

    const auto p = m.build_profile();
    const auto* team = find_child(p, 0, NodeKind::Region, outer.info.id);
    REQUIRE(team != nullptr);
    const auto* barrier = find_child(p, team->id, NodeKind::ImplicitBarrier, outer.info.id);
    REQUIRE(barrier != nullptr);
    // Instances 1 and 3: the master arrives last (+100); 2: worker A (+90).
    const auto& own = *thread_of(*team, 0);
    CHECK(own.visits == 3);
    CHECK(own.inclusive_s == Approx(3 * 120 * kNs));
    CHECK(own.startup_s == Approx(3 * 10 * kNs));
    CHECK(own.body_s == Approx((90 + 80 + 90) * kNs));  // instance 2: 40 ns of work, 40 ns of wait
    CHECK(own.shutdown_s == Approx((20 + 30 + 20) * kNs));
    CHECK(thread_of(*barrier, 0)->visits == 3);
    CHECK(thread_of(*barrier, 0)->inclusive_s == Approx(40 * kNs));
    const auto& a = *thread_of(*team, a_id);
    CHECK(a.visits == 3);
    CHECK(a.startup_s == Approx((20 + 15 + 20) * kNs));
    CHECK(a.body_s == Approx((80 + 75 + 80) * kNs));  // up to +60, then 40 ns of wait; instance 2: none
    CHECK(a.inclusive_s == Approx((100 + 90 + 100) * kNs));
    CHECK(a.shutdown_s == Approx(0));
    CHECK(thread_of(*barrier, a_id)->visits == 3);
    CHECK(thread_of(*barrier, a_id)->inclusive_s == Approx((40 + 0 + 40) * kNs));
    const auto& b = *thread_of(*team, b_id);
    CHECK(b.visits == 2);
    CHECK(b.startup_s == Approx(2 * 30 * kNs));
    CHECK(b.body_s == Approx(2 * (50 + 20) * kNs));
    CHECK(b.inclusive_s == Approx(2 * 100 * kNs));
    CHECK(thread_of(*barrier, b_id)->visits == 2);
    CHECK(thread_of(*barrier, b_id)->inclusive_s == Approx(2 * 20 * kNs));
    // The nested team: A forked it at +25, its worker C arrived at +40, A at
    // +45 (the last) and joined at +47.
    const auto* nested = find_child(p, team->id, NodeKind::Region, inner.info.id);
    REQUIRE(nested != nullptr);
    const auto* nested_barrier = find_child(p, nested->id, NodeKind::ImplicitBarrier, inner.info.id);
    REQUIRE(nested_barrier != nullptr);
    const auto& a_nested = *thread_of(*nested, a_id);
    CHECK(a_nested.visits == 1);
    CHECK(a_nested.inclusive_s == Approx(22 * kNs));
    CHECK(a_nested.body_s == Approx(19 * kNs));
    CHECK(a_nested.shutdown_s == Approx(2 * kNs));
    const auto& c = *thread_of(*nested, c_id);
    CHECK(c.visits == 1);
    CHECK(c.startup_s == Approx(3 * kNs));
    CHECK(c.body_s == Approx((12 + 5) * kNs));
    CHECK(c.inclusive_s == Approx(20 * kNs));
    CHECK(thread_of(*nested_barrier, c_id)->inclusive_s == Approx(5 * kNs));
    CHECK(thread_of(*nested_barrier, a_id)->inclusive_s == Approx(0));
    CHECK(analyses::check_invariants(p).empty());
}

namespace {

// Instances of a combined parallel loop with a team of two and a user
// region in the loop, the master's last instance forking the construct
// again inside its loop (recursion, a team of one).  The part's events:
// of their own (enter, exit), fused (TeamBegin::WithPart,
// exit_part_and_end_team), or a fused begin with the end's general path
// (exit_part, then parallel_end: the fused end when the adapter's common
// case fails).
enum class PartEvents { Separate, Fused, FusedBegin };
struct LoopRun {
    model::Profile profile;
    std::uint32_t construct = 0;  // the construct's region id
    // Regions directly below each thread's construct node in its own tree
    // (the loop part, if entered, is one of the construct's own region).
    std::vector<std::size_t> parts_per_thread;
};

LoopRun run_parallel_loop(PartEvents events) {
    const bool fused = events != PartEvents::Separate;
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& pfor = region("parallelfor", fused ? 600 : 700);
    const auto& work = region("userRegion", fused ? 610 : 710, "userRegionName=work*");
    constexpr std::uint64_t kKey = 51;
    constexpr int kInstances = 3;
    const auto begin = [&](core::ThreadState& t, core::Ticks now, const core::TeamPosition& position) {
        if (fused) return t.parallel_begin<core::TeamBegin::WithPart>(pfor, now, position);
        t.parallel_begin(pfor, now, position);
        t.enter(pfor, now);
    };
    const auto end = [&](core::ThreadState& t, core::Ticks now) {
        if (events == PartEvents::Fused) return t.exit_part_and_end_team(pfor, pfor, now);
        if (fused) {
            t.exit_part(pfor, now);
        } else {
            t.exit(pfor, now);
        }
        t.parallel_end(pfor, now);
    };
    core::ThreadState& master = m.this_thread();
    std::atomic<int> forked{0}, done{0};
    const core::ThreadState* worker_state = nullptr;
    std::thread worker([&] {
        core::ThreadState& w = m.this_thread();
        worker_state = &w;
        for (int i = 1; i <= kInstances; ++i) {
            await(forked, i);
            const core::Ticks s = 1000 * i;
            begin(w, s + 20, {kKey, 1});
            w.enter(work, s + 25);
            w.exit(work, s + 65);
            end(w, s + 70);
            done.store(i);
        }
    });
    for (int i = 1; i <= kInstances; ++i) {
        const core::Ticks s = 1000 * i;
        master.fork(pfor, s, kKey, 2);
        begin(master, s + 10, {kKey, 1});
        forked.store(i);
        master.enter(work, s + 15);
        master.exit(work, s + 50);
        if (i == kInstances) {
            master.fork(pfor, s + 55, 0, 1);
            begin(master, s + 56, {0, 2});
            end(master, s + 58);
            master.join(pfor, s + 59);
        }
        await(done, i);
        end(master, s + 90);
        master.join(pfor, s + 100);
    }
    worker.join();
    LoopRun run;
    run.profile = m.build_profile();
    run.construct = pfor.info.id;
    for (const core::ThreadState* t : {static_cast<const core::ThreadState*>(&master), worker_state}) {
        std::size_t parts = 0;
        for (const core::Node* node = t->root().child_list(); node != nullptr; node = node->sibling()) {
            for (const core::Node* child = node->child_list(); child != nullptr; child = child->sibling()) {
                if (child->kind == NodeKind::Region && child->region == &pfor) ++parts;
            }
        }
        run.parts_per_thread.push_back(parts);
    }
    return run;
}

}  // namespace

TEST_CASE("a combined parallel loop's fused calls leave its loop part out, every figure as with the part",
          "[core][threads]") {
    const LoopRun with_part = run_parallel_loop(PartEvents::Separate);
    const PartEvents variant = GENERATE(PartEvents::Fused, PartEvents::FusedBegin);
    const LoopRun fused = run_parallel_loop(variant);
    // The master's nested instance needs the part (the profile tells it from
    // the nested instance by it); the worker has none.
    CHECK(with_part.parts_per_thread == std::vector<std::size_t>{1, 1});
    CHECK(fused.parts_per_thread == std::vector<std::size_t>{1, 0});
    // The two runs register regions of their own: nodes are matched by
    // their path of kinds and region roles.
    const auto paths = [](const LoopRun& run) {
        std::vector<std::string> path(run.profile.nodes.size());
        for (std::size_t i = 0; i < run.profile.nodes.size(); ++i) {
            const model::Node& node = run.profile.nodes[i];
            const std::string role = !node.region ? "-" : *node.region == run.construct ? "construct" : "work";
            path[i] = (node.parent ? path[*node.parent] : std::string()) + "/" +
                      std::to_string(static_cast<int>(node.kind)) + role;
        }
        return path;
    };
    const std::vector<std::string> a_paths = paths(with_part);
    const std::vector<std::string> b_paths = paths(fused);
    const model::Profile& a = with_part.profile;
    const model::Profile& b = fused.profile;
    REQUIRE(a.nodes.size() == b.nodes.size());
    REQUIRE(a.nodes.size() == 6);  // root, construct, work, barrier, nested construct, its barrier
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const auto j = static_cast<std::size_t>(std::find(b_paths.begin(), b_paths.end(), a_paths[i]) - b_paths.begin());
        INFO("node " << a_paths[i]);
        REQUIRE(j < b.nodes.size());
        const model::Node& x = a.nodes[i];
        const model::Node& y = b.nodes[j];
        REQUIRE(x.threads.size() == y.threads.size());
        for (std::size_t t = 0; t < x.threads.size(); ++t) {
            INFO("thread " << x.threads[t].thread);
            CHECK(x.threads[t].thread == y.threads[t].thread);
            CHECK(x.threads[t].visits == y.threads[t].visits);
            CHECK(x.threads[t].inclusive_s == Approx(y.threads[t].inclusive_s));
            CHECK(x.threads[t].exclusive_s == Approx(y.threads[t].exclusive_s));
            CHECK(x.threads[t].body_s == Approx(y.threads[t].body_s));
            CHECK(x.threads[t].startup_s == Approx(y.threads[t].startup_s));
            CHECK(x.threads[t].shutdown_s == Approx(y.threads[t].shutdown_s));
            CHECK(x.threads[t].min_s == Approx(y.threads[t].min_s));
            CHECK(x.threads[t].max_s == Approx(y.threads[t].max_s));
        }
        const auto flow = [](const model::Node& node, const std::vector<std::string>& path) {
            std::vector<std::tuple<std::string, std::uint32_t, std::uint64_t>> entries;
            for (const auto& e : node.predecessors) entries.emplace_back(path[e.node], e.thread, e.count);
            std::sort(entries.begin(), entries.end());
            return entries;
        };
        CHECK(flow(x, a_paths) == flow(y, b_paths));
    }
    CHECK(analyses::check_invariants(b).empty());
    CHECK(b.warnings.empty());
}

namespace {

// Three instances of a team of three, the workers' arrivals in a different
// order each time; workers that know their thread number (the OpenMP
// runtime's) or not (they then claim a member of the team's record).
struct NumberedRun {
    model::Profile profile;
    std::uint32_t region = 0;
    std::vector<std::uint32_t> claimed;  // the record's claims in each instance
};

NumberedRun run_team_of_three(bool numbered) {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", numbered ? 800 : 810);
    constexpr std::uint64_t kKey = 61;
    core::ThreadState& master = m.this_thread();
    // One after the other: worker w is thread w + 1 in both runs.
    std::vector<core::ThreadState*> workers(2);
    for (std::size_t w = 0; w < 2; ++w) std::thread([&, w] { workers[w] = &m.this_thread(); }).join();
    NumberedRun run;
    for (core::Ticks i = 1; i <= 3; ++i) {
        const core::Ticks s = 1000 * i;
        master.fork(par, s, kKey, 3);
        master.parallel_begin(par, s + 5, {kKey, 1});
        // Worker 2 begins first in the second instance, arrives first in the third.
        const std::uint32_t first = i == 2 ? 1 : 0;
        for (std::uint32_t k = 0; k < 2; ++k) {
            const std::uint32_t w = k == 0 ? first : 1 - first;
            std::thread([&, w] {
                workers[w]->parallel_begin(par, s + 10 + 5 * k + w, {kKey, 1, numbered ? w + 1 : 0});
            }).join();
        }
        for (std::uint32_t w = 0; w < 2; ++w) {
            const core::Ticks arrival = i == 3 ? s + 70 - 20 * w : s + 40 + 20 * w + i;
            std::thread([&, w, arrival] { workers[w]->parallel_end(par, arrival); }).join();
        }
        master.parallel_end(par, s + 50);
        run.claimed.push_back(m.this_thread().root().child_list()->team->claimed.load());
        master.join(par, s + 90);
    }
    run.profile = m.build_profile();
    run.region = par.info.id;
    return run;
}

}  // namespace

// Per instance a worker writes only its own member of the team's record:
// with its thread number it claims none (no read-modify-write on a line that
// every worker and the master write), and its startup is the master's to
// add at the join.  The figures are the same either way, to the tick.
TEST_CASE("team hand-over: workers that know their number claim no member, every figure the same",
          "[core][threads]") {
    const NumberedRun claiming = run_team_of_three(false);
    const NumberedRun numbered = run_team_of_three(true);
    CHECK(claiming.claimed == std::vector<std::uint32_t>{2, 2, 2});
    CHECK(numbered.claimed == std::vector<std::uint32_t>{0, 0, 0});
    const model::Profile& a = claiming.profile;
    const model::Profile& b = numbered.profile;
    REQUIRE(a.nodes.size() == 3);  // root, the region, its join barrier
    REQUIRE(b.nodes.size() == a.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        REQUIRE(a.nodes[i].kind == b.nodes[i].kind);
        REQUIRE(a.nodes[i].threads.size() == b.nodes[i].threads.size());
        for (std::size_t t = 0; t < a.nodes[i].threads.size(); ++t) {
            const model::ThreadMetrics& x = a.nodes[i].threads[t];
            const model::ThreadMetrics& y = b.nodes[i].threads[t];
            INFO("node " << i << " thread " << x.thread);
            CHECK(x.thread == y.thread);
            CHECK(x.visits == y.visits);
            CHECK(x.inclusive_s == Approx(y.inclusive_s));
            CHECK(x.body_s == Approx(y.body_s));
            CHECK(x.startup_s == Approx(y.startup_s));
            CHECK(x.shutdown_s == Approx(y.shutdown_s));
            CHECK(x.min_s == Approx(y.min_s));
            CHECK(x.max_s == Approx(y.max_s));
        }
    }
    // Thread 1 begins at +10, +15, +10, thread 2 at +16, +11, +16; the last
    // arrivals are +61, +62 and +70.
    const auto* team = find_child(b, 0, NodeKind::Region, numbered.region);
    REQUIRE(team != nullptr);
    const auto& one = *thread_of(*team, 1);
    CHECK(one.visits == 3);
    CHECK(one.startup_s == Approx((10 + 15 + 10) * kNs));
    CHECK(one.inclusive_s == Approx((61 + 62 + 70) * kNs));
    const auto& two = *thread_of(*team, 2);
    CHECK(two.startup_s == Approx((16 + 11 + 16) * kNs));
    CHECK(two.inclusive_s == Approx((61 + 62 + 70) * kNs));
    CHECK(analyses::check_invariants(b).empty());
}

// A fork node that forks again with the same record publishes nothing: its
// workers find the fork slot's line as they last read it.
TEST_CASE("a fork node forking again leaves its fork slot alone", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    core::ForkSlot& slot = m.forks().claim(71);
    core::Node node;
    core::TeamRecord team, nested;
    core::ForkTable::publish(slot, {&node, 3, &team});
    CHECK(core::ForkTable::read(slot).node == &node);
    slot.thread.store(99);  // stands for "not written since"
    core::ForkTable::publish(slot, {&node, 3, &team});
    CHECK(slot.thread.load() == 99);
    core::ForkTable::publish(slot, {&node, 3, &nested});  // another open instance of the node
    CHECK(core::ForkTable::read(slot).thread == 3);
    CHECK(core::ForkTable::read(slot).team == &nested);
}

// A worker still in its part at program end: no join completes its visit,
// so it counts its startup itself as its region is closed, its visit from
// the fork as ever.
TEST_CASE("team hand-over: a worker's part closed at program end keeps its startup", "[core][end]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 820);
    core::ThreadState& master = m.this_thread();
    master.fork(par, 1000, 81, 2);
    master.parallel_begin(par, 1010, {81, 1});
    const std::uint32_t worker =
        on_new_thread(m, [&](core::ThreadState& w) { w.parallel_begin(par, 1030, {81, 1, 1}); });
    m.stop();
    m.close_open_regions(1500);
    const model::Profile p = m.build_profile();
    const auto* team = find_child(p, 0, NodeKind::Region, par.info.id);
    REQUIRE(team != nullptr);
    const auto* part = thread_of(*team, worker);
    REQUIRE(part != nullptr);
    CHECK(part->visits == 1);
    CHECK(part->startup_s == Approx(30 * kNs));
    CHECK(part->inclusive_s == Approx(500 * kNs));
}

// A folded fork node (below OMPP_MAX_DEPTH) forked again inside its own
// open instance: each open instance has a record of its own, so the outer
// team's worker, arrived before the inner fork, is completed at the outer
// join with the outer team's arrivals.
TEST_CASE("team hand-over: a folded fork node forked inside its own instance keeps each team's figures",
          "[core][depth]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock(), 2);
    const auto& work = region("userRegion", 830, "userRegionName=work*");
    const auto& par = region("parallel", 840);
    core::ThreadState& master = m.this_thread();
    const auto worker_part = [&](std::uint64_t key, core::Ticks begin, core::Ticks end) {
        return on_new_thread(m, [&](core::ThreadState& w) {
            w.parallel_begin(par, begin, {key, 1, 1});
            w.parallel_end(par, end);
        });
    };
    master.enter(work, 1000);
    master.enter(work, 1001);
    master.fork(par, 1002, 91, 2);  // folded below the second visit of `work`
    master.parallel_begin(par, 1003, {91, 1});
    const std::uint32_t a = worker_part(91, 1010, 1020);
    master.fork(par, 1030, 92, 2);  // the same folded node, inside its open instance
    master.parallel_begin(par, 1031, {92, 1});
    const std::uint32_t b = worker_part(92, 1035, 1040);
    master.parallel_end(par, 1045);
    master.join(par, 1050);
    master.parallel_end(par, 1060);
    master.join(par, 1070);
    master.exit(work, 1080);
    master.exit(work, 1090);
    const model::Profile p = m.build_profile();
    const auto* outer_work = find_child(p, 0, NodeKind::Region, work.info.id);
    REQUIRE(outer_work != nullptr);
    const auto* fold_point = find_child(p, outer_work->id, NodeKind::Region, work.info.id);
    REQUIRE(fold_point != nullptr);
    const auto* team = find_child(p, fold_point->id, NodeKind::Region, par.info.id);
    REQUIRE(team != nullptr);
    const auto* barrier = find_child(p, team->id, NodeKind::ImplicitBarrier, par.info.id);
    REQUIRE(barrier != nullptr);
    // A: forked at +2, begun at +10, arrived at +20, the outer team's last
    // arrival the master's at +60.  B: forked at +30, begun at +35, arrived
    // at +40, the inner team's last arrival at +45.
    CHECK(thread_of(*team, a)->startup_s == Approx(8 * kNs));
    CHECK(thread_of(*team, a)->inclusive_s == Approx(58 * kNs));
    CHECK(thread_of(*barrier, a)->inclusive_s == Approx(40 * kNs));
    CHECK(thread_of(*team, b)->startup_s == Approx(5 * kNs));
    CHECK(thread_of(*team, b)->inclusive_s == Approx(15 * kNs));
    CHECK(thread_of(*barrier, b)->inclusive_s == Approx(5 * kNs));
}

// A fork frame closed without its join (left open inside an enclosing
// region): its workers' reports are not taken for the next instance's.
TEST_CASE("team hand-over: reports no join took over are dropped at the next fork", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& work = region("userRegion", 850, "userRegionName=work*");
    const auto& par = region("parallel", 860);
    core::ThreadState& master = m.this_thread();
    master.enter(work, 1000);
    master.fork(par, 1010, 95, 2);
    master.parallel_begin(par, 1015, {95, 1});
    const std::uint32_t worker = on_new_thread(m, [&](core::ThreadState& w) {
        w.parallel_begin(par, 1020, {95, 1, 1});
        w.parallel_end(par, 1030);
    });
    master.exit(work, 1040);  // closes the team's frame: no join
    master.enter(work, 2000);
    master.fork(par, 2010, 95, 2);  // the same fork node, no worker this time
    master.parallel_begin(par, 2015, {95, 1});
    master.parallel_end(par, 2020);
    master.join(par, 2030);
    master.exit(work, 2040);
    const model::Profile p = m.build_profile();
    const auto* outer = find_child(p, 0, NodeKind::Region, work.info.id);
    REQUIRE(outer != nullptr);
    const auto* team = find_child(p, outer->id, NodeKind::Region, par.info.id);
    REQUIRE(team != nullptr);
    CHECK(thread_of(*team, 0)->visits == 2);
    const auto* part = thread_of(*team, worker);
    CHECK((part == nullptr || part->visits == 0));
}

// A member passes between its worker and the master by its node word
// (TeamMember): a worker whose member still holds a report the master has
// not read writes nothing into it, but records its visit itself.  The
// OpenMP runtime never lets that happen (the next instance's fork comes
// after the join), so without the hand-over's order the second report
// would overwrite the first one: one visit, the second one's wait.
TEST_CASE("team hand-over: a worker whose member is still the master's records its visit itself", "[core]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 870);
    core::ThreadState& master = m.this_thread();
    master.fork(par, 1000, 97, 2);
    master.parallel_begin(par, 1010, {97, 1});
    const std::uint32_t worker = on_new_thread(m, [&](core::ThreadState& w) {
        w.parallel_begin(par, 1020, {97, 1, 1});
        w.parallel_end(par, 1060);  // its report: begun +20, arrived +60
        w.parallel_begin(par, 1070, {97, 1, 1});
        w.parallel_end(par, 1100);  // its member is the master's: recorded here
    });
    master.parallel_end(par, 1110);
    master.join(par, 1120);
    const model::Profile p = m.build_profile();
    const auto* team = find_child(p, 0, NodeKind::Region, par.info.id);
    REQUIRE(team != nullptr);
    const auto* barrier = find_child(p, team->id, NodeKind::ImplicitBarrier, par.info.id);
    REQUIRE(barrier != nullptr);
    const auto* part = thread_of(*team, worker);
    REQUIRE(part != nullptr);
    CHECK(part->visits == 2);
    // The report, completed at the join: startup 20, part 40, wait 50 (to
    // the master's arrival at +110).  The visit recorded by the worker:
    // from the fork, startup 70, body 30, no wait.
    CHECK(part->startup_s == Approx((20 + 70) * kNs));
    CHECK(part->inclusive_s == Approx((110 + 100) * kNs));
    CHECK(part->body_s == Approx((40 + 50 + 30) * kNs));
    CHECK(thread_of(*barrier, worker)->visits == 2);
    CHECK(thread_of(*barrier, worker)->inclusive_s == Approx(50 * kNs));
}
