#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "analyses/invariants/invariants.hpp"
#include "event_stream.hpp"
#include "writers/json_writer.hpp"

using namespace ompp;
using model::NodeKind;
using test::find_child;
using test::region;
using test::kNs;
using test::thread_of;

namespace {

void require_no_negative_exclusive(const model::Profile& p) {
    for (const auto& node : p.nodes) {
        for (const auto& m : node.threads) {
            INFO("node " << node.id << " thread " << m.thread);
            CHECK(m.exclusive_s >= 0.0);
            CHECK(m.exclusive_s <= m.inclusive_s + 1e-15);
        }
    }
}

// The task_root node of `construct` under the thread root; the test stops without one.
const model::Node& task_root_of(const model::Profile& p, const core::RegionRecord& construct) {
    const auto* node = find_child(p, 0, NodeKind::TaskRoot, construct.info.id);
    REQUIRE(node != nullptr);
    return *node;
}

}  // namespace

// The seed's Fig. 6-11: two instances of task construct A are created, the
// thread enters the implicit barrier and starts instance 1, which suspends
// at a taskwait while instance 2 runs to completion; then instance 1 resumes
// and completes.
TEST_CASE("task profiling: seed Fig. 6-11 (suspended at a taskwait, resumed later)", "[tasks]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 100);
    const auto& task_a = region("task", 102);
    const auto& taskwait = region("taskwait", 104);
    core::ThreadState& t = m.this_thread();

    t.fork(par, 1000, 1);
    t.parallel_begin(par, 1000, {});
    core::TaskHandle h1 = 0, h2 = 0;
    for (auto [handle, start] : {std::pair{&h1, core::Ticks{1010}}, std::pair{&h2, core::Ticks{1030}}}) {
        const core::TaskHandle old = t.current_task();
        *handle = t.new_task_handle();
        t.enter(task_a, start);
        t.resume(old, start + 10);
        t.exit(task_a, start + 10);
    }
    const core::TaskHandle old_barrier = t.current_task();
    t.enter(par, 1100, NodeKind::ImplicitBarrier);
    t.task_begin(task_a, h1, 1200);                 // Fig. 8
    const core::TaskHandle old_taskwait = t.current_task();
    CHECK(old_taskwait == h1);
    t.enter(taskwait, 1300);
    t.task_begin(task_a, h2, 1400);                 // Fig. 9: instance 1 suspended
    t.task_end(task_a, 1600);                       // Fig. 10
    t.resume(old_taskwait, 1700);                   // instance 1 resumes at its taskwait
    t.exit(taskwait, 1750);
    t.task_end(task_a, 1800);                       // Fig. 11
    t.resume(old_barrier, 1900);
    t.exit(par, 1900, NodeKind::ImplicitBarrier);
    t.parallel_end(par, 1950);
    t.join(par, 1960);
    clock.at(2000);

    const auto p = m.build_profile();
    require_no_negative_exclusive(p);
    // One tree per task construct, under the root.
    const auto* task_root = find_child(p, 0, NodeKind::TaskRoot, task_a.info.id);
    REQUIRE(task_root != nullptr);
    const auto& root_metrics = *thread_of(*task_root, 0);
    CHECK(root_metrics.visits == 2);
    CHECK(root_metrics.inclusive_s == Approx(500 * kNs));  // 300 + 200: suspension excluded
    CHECK(root_metrics.min_s == Approx(200 * kNs));
    CHECK(root_metrics.max_s == Approx(300 * kNs));
    const auto* tw = find_child(p, task_root->id, NodeKind::Region, taskwait.info.id);
    REQUIRE(tw != nullptr);
    CHECK(thread_of(*tw, 0)->inclusive_s == Approx(150 * kNs));
    CHECK(root_metrics.exclusive_s == Approx(350 * kNs));
    // The stub under the implicit barrier: time running tasks, and switches.
    const auto* par_node = find_child(p, 0, NodeKind::Region, par.info.id);
    const auto* barrier = find_child(p, par_node->id, NodeKind::ImplicitBarrier, par.info.id);
    REQUIRE(barrier != nullptr);
    const auto* stub = find_child(p, barrier->id, NodeKind::TaskStub, task_a.info.id);
    REQUIRE(stub != nullptr);
    CHECK(thread_of(*stub, 0)->inclusive_s == Approx(500 * kNs));
    CHECK(thread_of(*stub, 0)->task_switches == 3);  // two begins, one resume
    // Task execution is counted once, in the task tree: the stub has no
    // exclusive time, and the thread's exclusive times add up to its time.
    CHECK(thread_of(*stub, 0)->exclusive_s == 0);
    double exclusive_s = 0;
    for (const auto& node : p.nodes) exclusive_s += thread_of(node, 0) ? thread_of(node, 0)->exclusive_s : 0;
    CHECK(exclusive_s == Approx(thread_of(p.nodes[0], 0)->inclusive_s));
    CHECK(analyses::check_invariants(p).empty());
    CHECK(thread_of(*barrier, 0)->exclusive_s == Approx(300 * kNs));
    CHECK(thread_of(*par_node, 0)->task_s == Approx(500 * kNs));
    // Creation: its own node under the parallel region.
    const auto* create = find_child(p, par_node->id, NodeKind::Region, task_a.info.id);
    REQUIRE(create != nullptr);
    CHECK(thread_of(*create, 0)->visits == 2);
    CHECK(thread_of(*create, 0)->inclusive_s == Approx(20 * kNs));
    // Table II statistics.
    REQUIRE(p.tasks.size() == 1);
    CHECK(p.tasks[0].region == task_a.info.id);
    CHECK(p.tasks[0].instances == 2);
    CHECK(p.tasks[0].mean_s == Approx(250 * kNs));
    CHECK(p.tasks[0].min_s == Approx(200 * kNs));
    CHECK(p.tasks[0].max_s == Approx(300 * kNs));
    CHECK(p.tasks[0].creation_s == Approx(20 * kNs));
    CHECK(p.tasks[0].max_concurrent_per_thread == 2);
    CHECK(p.warnings.empty());
}

// A scheduling point as one event each way (enter_scheduling_point; the
// resume of the old task and the exit in exit_scheduling_point; a taskwait
// that waits entered by begin_taskwait) records exactly what the separate
// operations record: the seed's Fig. 6-11 both ways.
TEST_CASE("task profiling: scheduling points as one event each way record what separate events do", "[tasks]") {
    const auto& par = region("parallel", 100);
    const auto& task_a = region("task", 102);
    const auto& taskwait = region("taskwait", 104);
    const auto run = [&](bool fused) {
        test::ManualClock clock;
        core::Measurement m(clock.clock());
        core::ThreadState& t = m.this_thread();
        const auto enter = [&](const core::RegionRecord& r, core::Ticks now, NodeKind kind = NodeKind::Region) {
            core::TaskHandle old = 0;
            if (fused) {
                t.enter_scheduling_point(r, now, &old, kind);
            } else {
                old = t.current_task();
                t.enter(r, now, kind);
            }
            return old;
        };
        const auto exit = [&](const core::RegionRecord& r, core::TaskHandle old, core::Ticks now,
                              NodeKind kind = NodeKind::Region) {
            if (fused) return t.exit_scheduling_point(r, old, now, kind);
            t.resume(old, now);
            t.exit(r, now, kind);
        };
        t.fork(par, 1000, 1);
        t.parallel_begin(par, 1000, {});
        core::TaskHandle h1 = 0, h2 = 0;
        for (auto [handle, start] : {std::pair{&h1, core::Ticks{1010}}, std::pair{&h2, core::Ticks{1030}}}) {
            *handle = t.new_task_handle();
            exit(task_a, enter(task_a, start), start + 10);
        }
        const core::TaskHandle old_barrier = enter(par, 1100, NodeKind::ImplicitBarrier);
        t.task_begin(task_a, h1, 1200);
        const core::TaskHandle old_taskwait = fused ? (clock.at(1300), t.begin_taskwait(taskwait)) : enter(taskwait, 1300);
        CHECK(old_taskwait == h1);
        t.task_begin(task_a, h2, 1400);  // instance 1 suspended at its taskwait
        t.task_end(task_a, 1600);
        exit(taskwait, old_taskwait, 1750);  // instance 1 resumes, then leaves its taskwait
        t.task_end(task_a, 1800);
        exit(par, old_barrier, 1900, NodeKind::ImplicitBarrier);
        t.parallel_end(par, 1950);
        t.join(par, 1960);
        clock.at(2000);
        return writers::to_json(m.build_profile());
    };
    const nlohmann::json separate = run(false);
    const nlohmann::json fused = run(true);
    CHECK(separate["warnings"].empty());
    CHECK(fused["nodes"] == separate["nodes"]);
    CHECK(fused["tasks"] == separate["tasks"]);
    CHECK(fused["warnings"] == separate["warnings"]);
}

TEST_CASE("task profiling: a scheduling point after program end is refused", "[tasks]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& task_a = region("task", 102);
    core::ThreadState& t = m.this_thread();
    const core::TaskHandle h = t.new_task_handle();
    t.task_begin(task_a, h, 1010);
    m.stop();
    core::TaskHandle old = -1;
    t.enter_scheduling_point(task_a, 1020, &old);
    CHECK(old == 0);
    t.exit_scheduling_point(task_a, h, 1030);
    CHECK(t.open_frames() == 0);  // nothing entered (the task's root has no frame)
}

namespace {
// Counter 0 is the manual clock's time: its deltas are the visits' times.
struct ClockCounter : core::CounterReader {
    const test::ManualClock& clock;
    explicit ClockCounter(const test::ManualClock& c) : clock(c) {}
    void read(core::CounterValues& values) override {
        values.fill(0);
        values[0] = clock.ticks.load();
    }
};
}  // namespace

// A task's root visit is the instance's span less its suspension, recorded
// at its end without a frame; with counters read, the root is a frame (its
// counter deltas need one) and its figures are the same.
TEST_CASE("task profiling: a task root needs no frame, and its visit is the same with one", "[tasks]") {
    for (const bool counters : {false, true}) {
        CAPTURE(counters);
        test::ManualClock clock;
        core::Measurement m(clock.clock());
        if (counters) m.set_counter_reader_factory([&] { return std::make_unique<ClockCounter>(clock); });
        const auto& task_a = region("task", 190);
        const auto& taskwait = region("taskwait", 191);
        core::ThreadState& t = m.this_thread();
        const core::TaskHandle parent = t.new_task_handle();
        t.task_begin(task_a, parent, clock.at(1000));
        CHECK(t.open_frames() == (counters ? 1 : 0));
        core::TaskHandle waiting = 0;
        t.enter_scheduling_point(taskwait, clock.at(1010), &waiting);
        t.task_begin(task_a, t.new_task_handle(), clock.at(1020));  // the parent is suspended
        CHECK(t.open_frames() == (counters ? 1 : 0));
        t.task_end(task_a, clock.at(1050));
        t.exit_scheduling_point(taskwait, waiting, clock.at(1060));  // and resumed
        t.task_end(task_a, clock.at(1100));
        CHECK(t.open_frames() == 0);
        const auto p = m.build_profile();
        CHECK(p.warnings.empty());
        const auto& root = *thread_of(task_root_of(p, task_a), 0);
        CHECK(root.visits == 2);
        CHECK(root.inclusive_s == Approx(90 * kNs));  // 100 less 40 suspended, and 30
        CHECK(root.min_s == Approx(30 * kNs));
        CHECK(root.max_s == Approx(60 * kNs));
        CHECK(root.exclusive_s == Approx(80 * kNs));  // less the taskwait's 10 of its own
        if (counters) CHECK(root.counters_inclusive[0] == Approx(90));
    }
}

// Each instance of a task construct forks a parallel region: the workers'
// trees hang under the fork node inside the construct's tree, and the
// control flow inside the task tree counts every instance.
TEST_CASE("task profiling: parallel regions forked inside task instances, control flow in the task tree",
          "[tasks][threads]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& task_a = region("task", 130);
    const auto& user = region("userRegion", 131, "userRegionName=prepare*");
    const auto& par = region("parallel", 132);
    core::ThreadState& t = m.this_thread();
    for (core::Ticks start : {core::Ticks{1000}, core::Ticks{2000}}) {
        const std::uint64_t key = 40 + start;
        t.task_begin(task_a, t.new_task_handle(), start);
        t.enter(user, start + 10);
        t.exit(user, start + 20);
        t.fork(par, start + 30, key, 2);
        t.parallel_begin(par, start + 30, {key, 1});
        std::thread worker([&] {
            core::ThreadState& w = m.this_thread();
            w.parallel_begin(par, start + 40, {key, 1});
            w.parallel_end(par, start + 90);
        });
        worker.join();
        t.parallel_end(par, start + 100);
        t.join(par, start + 110);
        t.task_end(task_a, start + 200);
    }

    const auto p = m.build_profile();
    require_no_negative_exclusive(p);
    const auto* task_root = find_child(p, 0, NodeKind::TaskRoot, task_a.info.id);
    REQUIRE(task_root != nullptr);
    CHECK(thread_of(*task_root, 0)->visits == 2);
    CHECK(thread_of(*task_root, 0)->inclusive_s == Approx(400 * kNs));
    const auto* user_node = find_child(p, task_root->id, NodeKind::Region, user.info.id);
    const auto* par_node = find_child(p, task_root->id, NodeKind::Region, par.info.id);
    REQUIRE(user_node != nullptr);
    REQUIRE(par_node != nullptr);
    CHECK(thread_of(*par_node, 0)->visits == 2);
    CHECK(thread_of(*par_node, 0)->inclusive_s == Approx(160 * kNs));
    // Each instance had its own worker thread: both under the fork node.
    std::size_t workers = 0;
    for (const auto& metrics : par_node->threads) {
        if (metrics.thread == 0) continue;
        ++workers;
        CHECK(metrics.visits == 1);
        CHECK(metrics.inclusive_s == Approx(70 * kNs));  // from the fork to the master's arrival at the join
    }
    CHECK(workers == 2);
    const auto count = [](const model::Node& node, std::uint32_t from) -> std::uint64_t {
        for (const auto& pred : node.predecessors) {
            if (pred.node == from) return pred.count;
        }
        return 0;
    };
    CHECK(count(*user_node, task_root->id) == 2);
    CHECK(count(*par_node, user_node->id) == 2);
    REQUIRE(p.tasks.size() == 1);
    CHECK(p.tasks[0].instances == 2);
    CHECK(p.tasks[0].max_concurrent_per_thread == 1);
    CHECK(p.warnings.empty());
}

// The seed's Fig. 3: a task created in a single construct runs in the
// parallel region's barrier: its time belongs to the barrier's stub, the
// creation node keeps only the creation time.
TEST_CASE("task profiling: seed Fig. 3 (time attributed where the task ran)", "[tasks]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 110);
    const auto& single = region("single", 111);
    const auto& task = region("task", 112);
    core::ThreadState& t = m.this_thread();
    t.fork(par, 1000, 1);
    t.parallel_begin(par, 1000, {});
    t.enter(single, 1000);
    t.begin_body(single, 1000);
    const core::TaskHandle old = t.current_task();
    const core::TaskHandle h = t.new_task_handle();
    t.enter(task, 1001);
    t.resume(old, 1002);
    t.exit(task, 1002);
    t.end_body(single, 1003);
    t.exit(single, 1003);
    const core::TaskHandle old_barrier = t.current_task();
    t.enter(par, 1004, NodeKind::ImplicitBarrier);
    t.task_begin(task, h, 1005);
    t.task_end(task, 1011);  // the work: 6
    t.resume(old_barrier, 1012);
    t.exit(par, 1012, NodeKind::ImplicitBarrier);
    t.parallel_end(par, 1012);
    t.join(par, 1012);

    const auto p = m.build_profile();
    require_no_negative_exclusive(p);
    const auto* par_node = find_child(p, 0, NodeKind::Region, par.info.id);
    const auto* single_node = find_child(p, par_node->id, NodeKind::Region, single.info.id);
    const auto* create = find_child(p, single_node->id, NodeKind::Region, task.info.id);
    REQUIRE(create != nullptr);
    CHECK(thread_of(*create, 0)->exclusive_s == Approx(1 * kNs));
    CHECK(find_child(p, create->id, NodeKind::TaskStub, task.info.id) == nullptr);
    const auto* barrier = find_child(p, par_node->id, NodeKind::ImplicitBarrier, par.info.id);
    const auto* stub = find_child(p, barrier->id, NodeKind::TaskStub, task.info.id);
    REQUIRE(stub != nullptr);
    CHECK(thread_of(*stub, 0)->inclusive_s == Approx(6 * kNs));
    CHECK(thread_of(*barrier, 0)->exclusive_s == Approx(2 * kNs));  // waiting, not working
    CHECK(thread_of(*single_node, 0)->body_count == 1);
}

TEST_CASE("task profiling: undeferred task inside its creation, nested in another task", "[tasks]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& outer = region("task", 120);
    const auto& inner = region("task", 121);
    core::ThreadState& t = m.this_thread();
    const core::TaskHandle h_outer = t.new_task_handle();
    t.task_begin(outer, h_outer, 1000);
    const core::TaskHandle old = t.current_task();
    CHECK(old == h_outer);
    const core::TaskHandle h_inner = t.new_task_handle();
    t.enter(inner, 1010);             // creation, inside the outer task
    t.task_begin(inner, h_inner, 1020);  // run at once (if(0)/included)
    t.task_end(inner, 1050);
    t.resume(old, 1060);
    t.exit(inner, 1070);
    t.task_end(outer, 1100);

    const auto p = m.build_profile();
    require_no_negative_exclusive(p);
    const auto* outer_root = &task_root_of(p, outer);
    const auto* inner_root = &task_root_of(p, inner);
    // The outer task was suspended while the inner one ran (1020-1060).
    CHECK(thread_of(*outer_root, 0)->inclusive_s == Approx(60 * kNs));
    CHECK(thread_of(*inner_root, 0)->inclusive_s == Approx(30 * kNs));
    const auto* create = find_child(p, outer_root->id, NodeKind::Region, inner.info.id);
    REQUIRE(create != nullptr);
    CHECK(thread_of(*create, 0)->inclusive_s == Approx(20 * kNs));
    CHECK(p.warnings.empty());
}

// Task contexts are recycled; one keeps the task root of the construct its
// last instance ran (ThreadState::start_task), so instances of constructs
// run in turn must still each land under their own task root, and a
// finished instance's context starts its next instance unsuspended.
TEST_CASE("task profiling: recycled task contexts of different constructs in turn", "[tasks]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& task_a = region("task", 140);
    const auto& task_b = region("task", 142);
    const auto& inner = region("userRegion", 144, "userRegionName=inner");
    core::ThreadState& t = m.this_thread();
    core::Ticks now = 1000;
    for (const auto* construct : {&task_a, &task_b, &task_a, &task_b, &task_b}) {
        t.task_begin(*construct, t.new_task_handle(), now);
        t.enter(inner, now + 10);
        t.exit(inner, now + 20);
        t.task_end(*construct, now + (construct == &task_a ? 30 : 50));
        now += 100;
    }
    const auto p = m.build_profile();
    require_no_negative_exclusive(p);
    const auto* root_a = &task_root_of(p, task_a);
    const auto* root_b = &task_root_of(p, task_b);
    CHECK(thread_of(*root_a, 0)->visits == 2);
    CHECK(thread_of(*root_b, 0)->visits == 3);
    CHECK(thread_of(*root_a, 0)->inclusive_s == Approx(60 * kNs));
    CHECK(thread_of(*root_b, 0)->inclusive_s == Approx(150 * kNs));
    for (const auto* root : {root_a, root_b}) {
        const auto* visits_inside = find_child(p, root->id, NodeKind::Region, inner.info.id);
        REQUIRE(visits_inside != nullptr);
        CHECK(thread_of(*visits_inside, 0)->visits == thread_of(*root, 0)->visits);
    }
    CHECK(p.warnings.empty());
}

TEST_CASE("task profiling: instances begun with handles never created (taskloop)", "[tasks]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& taskloop = region("taskloop", 130);
    core::ThreadState& t = m.this_thread();
    const core::TaskHandle old = t.current_task();
    t.enter(taskloop, 1000);
    for (int i = 0; i < 4; ++i) {
        t.task_begin(taskloop, 0, 1100 + 100 * i);  // the same bogus handle every time
        t.task_end(taskloop, 1150 + 100 * i);
    }
    t.resume(old, 1500);
    t.exit(taskloop, 1500);
    const auto p = m.build_profile();
    require_no_negative_exclusive(p);
    const auto* root = find_child(p, 0, NodeKind::TaskRoot, taskloop.info.id);
    REQUIRE(root != nullptr);
    CHECK(thread_of(*root, 0)->visits == 4);
    const auto* node = find_child(p, 0, NodeKind::Region, taskloop.info.id);
    const auto* stub = find_child(p, node->id, NodeKind::TaskStub, taskloop.info.id);
    REQUIRE(stub != nullptr);
    CHECK(thread_of(*stub, 0)->task_switches == 4);
    CHECK(thread_of(*node, 0)->exclusive_s == Approx(300 * kNs));
    CHECK(p.warnings.empty());
}

TEST_CASE("task profiling: tasks created on one thread run on others, read concurrently", "[tasks][threads]") {
    core::Measurement m(core::Clock::calibrated());
    const auto& par = region("parallel", 140);
    const auto& task = region("task", 141);
    const auto& work = region("userRegion", 142, "userRegionName=work*");
    constexpr int kTasks = 2000;
    std::vector<std::atomic<core::TaskHandle>> handles(kTasks);
    std::atomic<int> created{0};
    std::atomic<bool> done{false};
    core::ThreadState& master = m.this_thread();
    master.fork(par, m.now(), 5);
    master.parallel_begin(par, m.now(), {5, 1});
    std::atomic<int> snapshots{0};
    std::atomic<int> bad_snapshots{0};
    std::thread reader([&] {
        // A snapshot thread: traverses every tree while they grow (Catch's
        // assertions are not thread-safe, so it only counts).
        while (!done.load()) {
            const auto p = m.build_profile();
            ++snapshots;
            for (const auto& node : p.nodes) {
                for (const auto& metrics : node.threads) {
                    if (metrics.exclusive_s < 0 || metrics.inclusive_s < 0) ++bad_snapshots;
                }
            }
        }
    });
    std::vector<std::thread> workers;
    for (int w = 0; w < 2; ++w) {
        workers.emplace_back([&, w] {
            core::ThreadState& t = m.this_thread();
            t.parallel_begin(par, m.now(), {5, 1});
            const auto old = t.current_task();
            t.enter(par, m.now(), NodeKind::ImplicitBarrier);
            for (int i = w; i < kTasks; i += 2) {
                while (i >= created.load()) std::this_thread::yield();
                t.task_begin(task, handles[i].load(), m.now());
                t.enter(work, m.now());
                t.exit(work, m.now());
                t.task_end(task, m.now());
            }
            t.resume(old, m.now());
            t.exit(par, m.now(), NodeKind::ImplicitBarrier);
            t.parallel_end(par, m.now());
        });
    }
    for (int i = 0; i < kTasks; ++i) {
        // Half-way, a snapshot must have been read while the trees grow (on a
        // loaded machine the reader may not have run yet).
        while (i == kTasks / 2 && snapshots.load() == 0) std::this_thread::yield();
        const auto old = master.current_task();
        handles[i].store(master.new_task_handle());
        master.enter(task, m.now());
        master.resume(old, m.now());
        master.exit(task, m.now());
        created.store(i + 1);
    }
    for (auto& w : workers) w.join();
    master.parallel_end(par, m.now());
    master.join(par, m.now());
    done.store(true);
    reader.join();
    CHECK(bad_snapshots.load() == 0);

    const auto p = m.build_profile();
    require_no_negative_exclusive(p);
    REQUIRE(p.tasks.size() == 1);
    CHECK(p.tasks[0].instances == kTasks);
    const auto* root = find_child(p, 0, NodeKind::TaskRoot, task.info.id);
    REQUIRE(root != nullptr);
    CHECK(test::sum_visits(*root) == kTasks);
    CHECK(test::sum_visits(*find_child(p, root->id, NodeKind::Region, work.info.id)) == kTasks);
    CHECK(p.warnings.empty());
}

// Program end with regions open on several threads, one of them inside a
// suspended task instance: everything counts up to the end, with warnings.
TEST_CASE("program end closes every thread's open regions, task instances included", "[tasks][lifecycle]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& par = region("parallel", 300);
    const auto& user = region("userRegion", 302, "userRegionName=busy*");
    const auto& task_a = region("task", 304);
    const auto& taskwait = region("taskwait", 306);
    core::ThreadState& master = m.this_thread();
    constexpr std::uint64_t kKey = 33;
    master.fork(par, 1000, kKey);
    master.parallel_begin(par, 1000, {kKey, 1});
    master.enter(user, 1100);
    std::thread worker([&] {
        core::ThreadState& w = m.this_thread();
        w.parallel_begin(par, 1010, {kKey, 1});
        const core::TaskHandle handle = w.new_task_handle();
        w.enter(taskwait, 1200);
        w.task_begin(task_a, handle, 1300);
        w.enter(user, 1400);  // open inside the running task instance
    });
    worker.join();
    m.close_open_regions(2000);

    const auto p = m.build_profile();
    require_no_negative_exclusive(p);
    const auto* par_node = find_child(p, 0, NodeKind::Region, par.info.id);
    REQUIRE(par_node != nullptr);
    CHECK(thread_of(*par_node, 0)->inclusive_s == Approx(1000 * kNs));
    CHECK(thread_of(*par_node, 1)->inclusive_s == Approx(1000 * kNs));  // from the fork
    const auto* user_node = find_child(p, par_node->id, NodeKind::Region, user.info.id);
    REQUIRE(user_node != nullptr);
    CHECK(thread_of(*user_node, 0)->inclusive_s == Approx(900 * kNs));
    // The worker's task instance ended at the end; its time is in its construct's tree.
    const auto* task_root = find_child(p, 0, NodeKind::TaskRoot, task_a.info.id);
    REQUIRE(task_root != nullptr);
    CHECK(thread_of(*task_root, 1)->visits == 1);
    CHECK(thread_of(*task_root, 1)->inclusive_s == Approx(700 * kNs));
    const auto* user_in_task = find_child(p, task_root->id, NodeKind::Region, user.info.id);
    REQUIRE(user_in_task != nullptr);
    CHECK(thread_of(*user_in_task, 1)->inclusive_s == Approx(600 * kNs));
    const auto* tw = find_child(p, par_node->id, NodeKind::Region, taskwait.info.id);
    REQUIRE(tw != nullptr);
    CHECK(thread_of(*tw, 1)->inclusive_s == Approx(800 * kNs));
    // The instance was running there: its time at the taskwait (its stub,
    // no frame while it runs) counts up to the end too.
    const auto* stub = find_child(p, tw->id, NodeKind::TaskStub, task_a.info.id);
    REQUIRE(stub != nullptr);
    REQUIRE(thread_of(*stub, 1) != nullptr);
    CHECK(thread_of(*stub, 1)->task_switches == 1);
    CHECK(thread_of(*stub, 1)->inclusive_s == Approx(700 * kNs));
    std::size_t marked = 0;
    for (const auto& warning : p.warnings) {
        if (warning.text.find("still open at program end") != std::string::npos) marked += warning.occurrences;
    }
    CHECK(marked >= 5);  // par x2, user x2, taskwait; stubs and task roots are not regions
    CHECK(master.open_frames() == 0);
}
