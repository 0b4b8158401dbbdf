// Exact checks of the performance-property criteria and severities on
// hand-built profiles.
#include <catch2/catch.hpp>

#include "analyses/properties/properties.hpp"
#include "profile_builder.hpp"

using namespace ompp;
using model::NodeKind;
using model::RegionKind;
using test::metrics;
using test::ProfileBuilder;

namespace {

const model::Property* property(const std::vector<model::Property>& list, std::string_view name,
                                std::optional<std::uint32_t> region = std::nullopt) {
    for (const auto& p : list)
        if (p.name == name && (!region || p.region == region)) return &p;
    return nullptr;
}

}  // namespace

TEST_CASE("imbalance and contention properties: severity = d / (duration x threads), most severe first",
          "[properties]") {
    ProfileBuilder b(10.0, 4);  // ranking basis 40 thread-seconds
    auto parallel = b.region(RegionKind::Parallel, 5, 40);
    auto loop = b.region(RegionKind::Loop, 19, 23);
    auto critical = b.region(RegionKind::Critical, 30, 32);
    auto team = std::vector{metrics(0, 10), metrics(1, 10), metrics(2, 10), metrics(3, 10)};
    auto par = b.region_node(0, parallel, team);
    b.node(par, NodeKind::ImplicitBarrier, parallel, {metrics(0, 0.4), metrics(1, 0), metrics(2, 0), metrics(3, 0)});
    auto loop_node = b.region_node(par, loop, {metrics(0, 8), metrics(1, 8), metrics(2, 8), metrics(3, 8)});
    // thread t waits 3-t seconds: d = 6 s -> 15 %
    b.node(loop_node, NodeKind::ImplicitBarrier, loop, {metrics(0, 3), metrics(1, 2), metrics(2, 1), metrics(3, 0)});
    std::vector<model::ThreadMetrics> crit;
    for (std::uint32_t t = 0; t < 4; ++t) {
        auto m = metrics(t, 1 + t * 0.5);
        m.enter_s = t * 0.5;  // d = 3 s -> 7.5 %
        crit.push_back(m);
    }
    b.region_node(par, critical, crit);

    auto props = analyses::find_properties(b.profile());
    REQUIRE(props.size() == 3);
    CHECK(props[0].name == "ImbalanceInParallelLoop");
    CHECK(props[0].region == loop);
    CHECK(props[0].severity_pct == Approx(15.0));
    CHECK(props[0].text == "Imbalance in parallel loop test.c (19-23): 15.0% of total thread time");
    CHECK(props[1].name == "CriticalSectionContention");
    CHECK(props[1].severity_pct == Approx(7.5));
    CHECK(props[2].name == "ImbalanceInParallelRegion");
    CHECK(props[2].severity_pct == Approx(1.0));

    std::string out;
    b.profile().properties = props;
    analyses::append_properties_report(out, b.profile());
    CHECK(out.find("Property P00001 'ImbalanceInParallelLoop' holds for\n"
                   "     'LOOP test.c (19-23)', with a severity (in percent) of 15.0000\n") != std::string::npos);
    CHECK(out.find("Property P00003 'ImbalanceInParallelRegion'") != std::string::npos);
}

TEST_CASE("sections properties distinguish uneven distribution from too few sections", "[properties]") {
    ProfileBuilder b(1.0, 2);
    auto sections = b.region(RegionKind::Sections);
    auto make = [&](std::uint64_t c0, std::uint64_t c1) {
        auto m0 = metrics(0, 1), m1 = metrics(1, 1);
        m0.body_count = c0;
        m1.body_count = c1;
        auto node = b.region_node(0, sections, {m0, m1});
        b.node(node, NodeKind::ImplicitBarrier, sections, {metrics(0, 0.1), metrics(1, 0.3)});
        return node;
    };
    SECTION("3 sections over 2 thread-visits") {
        make(2, 1);
        auto props = analyses::find_properties(b.profile());
        REQUIRE(props.size() == 1);
        CHECK(props[0].name == "ImbalanceDueToUnevenSectionDistribution");
        CHECK(props[0].severity_pct == Approx(20.0));
    }
    SECTION("1 section over 2 thread-visits") {
        make(1, 0);
        auto props = analyses::find_properties(b.profile());
        REQUIRE(props.size() == 1);
        CHECK(props[0].name == "ImbalanceDueToNotEnoughSections");
    }
    SECTION("even distribution") {
        make(1, 1);
        auto props = analyses::find_properties(b.profile());
        REQUIRE(props.size() == 1);
        CHECK(props[0].name == "ImbalanceInParallelSections");
    }
}

TEST_CASE("frequent atomic needs more than 1000 executions per thread-second", "[properties]") {
    ProfileBuilder b(1.0, 2);  // ranking basis 2 s
    auto atomic = b.region(RegionKind::Atomic);
    auto node = b.region_node(0, atomic, {metrics(0, 0.1, 1000), metrics(1, 0.1, 1000)});
    CHECK(property(analyses::find_properties(b.profile()), "FrequentAtomic") == nullptr);
    b.at(node).threads[0].visits = 1001;
    auto props = analyses::find_properties(b.profile());
    const auto* p = property(props, "FrequentAtomic");
    REQUIRE(p);
    CHECK(p->severity_pct == Approx(10.0));
}

TEST_CASE("single, master and explicit barrier properties", "[properties]") {
    ProfileBuilder b(2.0, 2);
    auto single = b.region(RegionKind::Single);
    auto master = b.region(RegionKind::Master);
    auto barrier = b.region(RegionKind::Barrier);
    auto task = b.region(RegionKind::Task);
    auto single_node = b.region_node(0, single, {metrics(0, 1), metrics(1, 1)});
    b.node(single_node, NodeKind::ImplicitBarrier, single, {metrics(0, 0), metrics(1, 0.8)});
    b.region_node(0, master, {metrics(0, 0.4)});
    auto barrier_node = b.region_node(0, barrier, {metrics(0, 0.2), metrics(1, 0.2)});
    b.node(barrier_node, NodeKind::TaskStub, task, {metrics(1, 0.2)});
    auto props = analyses::find_properties(b.profile());
    REQUIRE(property(props, "UnparallelizedInSingleRegion"));
    CHECK(property(props, "UnparallelizedInSingleRegion")->severity_pct == Approx(20.0));
    CHECK(property(props, "UnparallelizedInMasterRegion")->severity_pct == Approx(10.0));
    // thread 1 ran a task for its whole barrier time: only thread 0 waited
    CHECK(property(props, "WaitAtBarrier")->severity_pct == Approx(5.0));
}

TEST_CASE("insufficient work in a parallel loop: work per thread below the fixed cost every thread pays",
          "[properties]") {
    ProfileBuilder b(1.0, 2);
    auto loop = b.region(RegionKind::Loop);
    SECTION("tiny balanced loop: barrier cost dominates") {
        auto node = b.region_node(0, loop, {metrics(0, 0.03, 1000), metrics(1, 0.03, 1000)});
        // every thread waits at least 0.02 s in total: the barrier's own cost
        b.node(node, NodeKind::ImplicitBarrier, loop, {metrics(0, 0.02), metrics(1, 0.025)});
        auto props = analyses::find_properties(b.profile());
        const auto* p = property(props, "InsufficientWorkInParallelLoop");
        REQUIRE(p);
        CHECK(p->severity_pct == Approx(100.0 * 0.04 / 2.0));
    }
    SECTION("imbalanced loop with real work: imbalance, not insufficient work") {
        auto node = b.region_node(0, loop, {metrics(0, 0.5), metrics(1, 0.5)});
        b.node(node, NodeKind::ImplicitBarrier, loop, {metrics(0, 0.0), metrics(1, 0.3)});
        auto props = analyses::find_properties(b.profile());
        CHECK(property(props, "InsufficientWorkInParallelLoop") == nullptr);
        CHECK(property(props, "ImbalanceInParallelLoop"));
    }
}

TEST_CASE("task properties", "[properties][tasks]") {
    ProfileBuilder b(1.0, 4);  // ranking basis 4 s
    auto parallel = b.region(RegionKind::Parallel);
    auto single = b.region(RegionKind::Single);
    auto task = b.region(RegionKind::Task);
    auto par = b.region_node(0, parallel, {metrics(0, 1), metrics(1, 1), metrics(2, 1), metrics(3, 1)});
    auto single_node = b.region_node(par, single, {metrics(0, 0.5), metrics(1, 0.0), metrics(2, 0.0), metrics(3, 0.0)});
    // thread 0 creates all 1000 instances: 0.2 s creation in total
    b.region_node(single_node, task, {metrics(0, 0.2, 1000)});
    auto barrier = b.node(par, NodeKind::ImplicitBarrier, parallel,
                          {metrics(0, 0.3), metrics(1, 0.9), metrics(2, 0.9), metrics(3, 0.9)});
    // threads 1-3 run the instances in the barrier: 300 switches each but
    // only 0.1 s of task work each; the rest (0.8 s each) is spent between tasks
    auto stub = [](std::uint32_t t) {
        auto m = metrics(t, 0.1, 300);
        m.task_switches = 300;
        return m;
    };
    b.node(barrier, NodeKind::TaskStub, task, {stub(1), stub(2), stub(3)});
    b.node(0, NodeKind::TaskRoot, task, {metrics(1, 0.1, 300), metrics(2, 0.1, 300), metrics(3, 0.1, 300)});
    model::TaskStatistics stats;
    stats.region = task;
    stats.instances = 900;
    stats.mean_s = 0.3 / 900;
    stats.creation_s = 0.2;
    b.profile().tasks.push_back(stats);

    auto props = analyses::find_properties(b.profile());
    const auto* small = property(props, "TasksTooSmallForCreationCost", task);
    REQUIRE(small);
    CHECK(small->severity_pct == Approx(5.0));  // 0.2 s of 4 s
    const auto* concentrated = property(props, "TaskCreationConcentratedOnFewThreads", task);
    REQUIRE(concentrated);
    CHECK(concentrated->severity_pct == Approx(100.0 * (0.2 - 0.2 / 4) * 4 / 4.0));
    const auto* management = property(props, "TaskManagementDominatesWaiting", parallel);
    REQUIRE(management);
    CHECK(management->severity_pct == Approx(100.0 * (0.3 + 3 * 0.8) / 4.0));
    // Those seconds are not diagnosed a second time as the region's imbalance.
    CHECK(property(props, "ImbalanceInParallelRegion", parallel) == nullptr);

    SECTION("big tasks created by every thread hold none of the task properties") {
        auto& p = b.profile();
        p.tasks[0].mean_s = 0.01;
        for (auto& n : p.nodes)
            if (n.kind == NodeKind::Region && n.region == task)
                n.threads = {metrics(0, 0.05, 250), metrics(1, 0.05, 250), metrics(2, 0.05, 250), metrics(3, 0.05, 250)};
        for (auto& n : p.nodes)
            if (n.kind == NodeKind::TaskStub)
                for (auto& m : n.threads) m.task_switches = 1, m.visits = 1;
        auto props2 = analyses::find_properties(p);
        CHECK(property(props2, "TasksTooSmallForCreationCost") == nullptr);
        CHECK(property(props2, "TaskCreationConcentratedOnFewThreads") == nullptr);
        CHECK(property(props2, "TaskManagementDominatesWaiting") == nullptr);
        CHECK(property(props2, "ImbalanceInParallelRegion", parallel) != nullptr);
    }
}

namespace {

// A parallel region of 4 threads, 10 s each, whose loop's barrier holds
// `waits[t]`; thread t waited `run_delay[t]` s for a CPU in its sampled
// bodies (all of them).
model::Profile parallel_loop(const std::vector<double>& waits, const std::vector<double>& run_delay) {
    ProfileBuilder b(10.0, 4);
    auto parallel = b.region(RegionKind::Parallel, 5, 40);
    auto loop = b.region(RegionKind::Loop, 19, 23);
    std::vector<model::ThreadMetrics> team, loop_team, barrier;
    for (std::uint32_t t = 0; t < 4; ++t) {
        auto m = metrics(t, 10);
        m.cpu_samples = 5;
        m.cpu_sampled_s = 10;
        m.run_delay_s = run_delay[t];
        m.cpu_s = 10 - run_delay[t] - waits[t];
        team.push_back(m);
        loop_team.push_back(metrics(t, 10));
        barrier.push_back(metrics(t, waits[t]));
    }
    auto par = b.region_node(0, parallel, team);
    auto loop_node = b.region_node(par, loop, loop_team);
    b.node(loop_node, NodeKind::ImplicitBarrier, loop, barrier);
    return b.profile();
}

}  // namespace

TEST_CASE("preempted threads are diagnosed as such, not as imbalance", "[properties][preemption]") {
    SECTION("oversubscribed: 7 s of each thread's 10 s waiting for a CPU; the barrier waits are the preemption's") {
        auto props = analyses::find_properties(parallel_loop({0.5, 0.5, 0.5, 0.5}, {7, 7, 7, 7}));
        const auto* preempted = property(props, "ThreadsPreemptedInParallelRegion");
        REQUIRE(preempted != nullptr);
        CHECK(preempted->severity_pct == Approx(100.0 * 28 / 40));
        CHECK(preempted->text.find("(20 sampled bodies, 40.000 s of thread time: 10.000 s on a CPU, 28.000 s waiting "
                                   "for one)") != std::string::npos);
        CHECK(property(props, "ImbalanceInParallelLoop") == nullptr);
    }
    SECTION("imbalanced on an oversubscribed machine: the waits beyond the preemption stay imbalance") {
        // A third of the time waiting for a CPU; 13 s of the 18 s barrier waits are the preemption's.
        auto props = analyses::find_properties(parallel_loop({0, 6, 6, 6}, {7, 2, 2, 2}));
        const auto* preempted = property(props, "ThreadsPreemptedInParallelRegion");
        REQUIRE(preempted != nullptr);
        CHECK(preempted->severity_pct == Approx(100.0 * 13 / 40));
        const auto* imbalance = property(props, "ImbalanceInParallelLoop");
        REQUIRE(imbalance != nullptr);
        CHECK(imbalance->severity_pct == Approx(100.0 * 5 / 40));
    }
    SECTION("occasional preemption on a busy machine leaves imbalance alone") {
        auto props = analyses::find_properties(parallel_loop({0, 6, 6, 6}, {0.5, 0.1, 0.1, 0.1}));
        const auto* preempted = property(props, "ThreadsPreemptedInParallelRegion");
        REQUIRE(preempted != nullptr);
        CHECK(preempted->severity_pct == Approx(100.0 * 0.8 / 40));
        const auto* imbalance = property(props, "ImbalanceInParallelLoop");
        REQUIRE(imbalance != nullptr);
        CHECK(imbalance->severity_pct == Approx(100.0 * 18 / 40));
    }
    SECTION("sleeping or waiting is not preemption: without run-queue time there is no such property") {
        auto props = analyses::find_properties(parallel_loop({0, 6, 6, 6}, {0, 0, 0, 0}));
        CHECK(property(props, "ThreadsPreemptedInParallelRegion") == nullptr);
        CHECK(property(props, "ImbalanceInParallelLoop")->severity_pct == Approx(100.0 * 18 / 40));
    }
}
