// The invariant check: a profile that adds up passes, and each invariant
// fails on a profile built to break it.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/invariants/invariants.hpp"
#include "profile_builder.hpp"

using namespace ompp;
using model::NodeKind;
using model::RegionKind;
using test::metrics;
using test::ProfileBuilder;

namespace {

model::ThreadMetrics with_exclusive(model::ThreadMetrics m, double exclusive_s) {
    m.exclusive_s = exclusive_s;
    return m;
}

// 10 s on thread 0 around a 6 s parallel loop of 2 threads; thread 1 ran a
// 1 s task in the loop's implicit barrier.
struct Consistent {
    ProfileBuilder b{10.0, 2};
    std::uint32_t loop = b.region(RegionKind::ParallelLoop, 10, 20);
    std::uint32_t task = b.region(RegionKind::Task, 12, 13);
    std::uint32_t loop_node, barrier_node, stub_node, task_root;

    Consistent() {
        b.at(0).threads = {with_exclusive(metrics(0, 10.0), 4.0)};
        loop_node = b.region_node(0, loop, {with_exclusive(metrics(0, 6.0), 5.5), with_exclusive(metrics(1, 6.0), 4.0)});
        barrier_node = b.node(loop_node, NodeKind::ImplicitBarrier, loop,
                              {metrics(0, 0.5), with_exclusive(metrics(1, 2.0), 1.0)});
        stub_node = b.node(barrier_node, NodeKind::TaskStub, task, {with_exclusive(metrics(1, 1.0), 0.0)});
        task_root = b.node(0, NodeKind::TaskRoot, task, {metrics(1, 1.0)});
        b.profile().overheads.total_s = 20.0;
        b.profile().overheads.program.imbalance_s = 1.5;
        b.profile().overheads.regions.push_back({loop, 12.0, {0, 1.5, 0, 0}});
    }
};

// Sets one thread entry's inclusive and exclusive time.
void set_times(model::Node& node, std::size_t entry, double inclusive_s, double exclusive_s) {
    node.threads.at(entry).inclusive_s = inclusive_s;
    node.threads.at(entry).exclusive_s = exclusive_s;
}

bool mentions(const std::vector<std::string>& violations, const std::string& text) {
    for (const auto& v : violations)
        if (v.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("invariants: a profile that adds up has no violation", "[invariants]") {
    Consistent c;
    CHECK(analyses::check_invariants(c.b.profile()).empty());
}

TEST_CASE("invariants: negative time and exclusive above inclusive", "[invariants]") {
    Consistent c;
    c.b.at(c.barrier_node).threads[0].enter_s = -1.0;
    c.b.at(c.loop_node).threads[1].exclusive_s = 7.0;
    auto violations = analyses::check_invariants(c.b.profile());
    CHECK(mentions(violations, "negative"));
    CHECK(mentions(violations, "exclusive 7.000000 s > inclusive 6.000000 s"));
}

TEST_CASE("invariants: children longer than their parent", "[invariants]") {
    Consistent c;
    set_times(c.b.at(c.barrier_node), 0, 7.0, 7.0);
    CHECK(mentions(analyses::check_invariants(c.b.profile()), "children's time 7.000000 s > its inclusive"));
}

TEST_CASE("invariants: task time counted at the stub and in the task tree", "[invariants]") {
    Consistent c;
    c.b.at(c.stub_node).threads[0].exclusive_s = 1.0;  // the seconds of the task, a second time
    auto violations = analyses::check_invariants(c.b.profile());
    CHECK(mentions(violations, "exclusive time at a task stub"));
    CHECK(mentions(violations, "thread 1: exclusive times add up to"));
}

TEST_CASE("invariants: stub time differs from the task tree's", "[invariants]") {
    Consistent c;
    set_times(c.b.at(c.task_root), 0, 0.5, 0.5);
    CHECK(mentions(analyses::check_invariants(c.b.profile()), "tasks run at stubs 1.000000 s, in the task tree 0.500000 s"));
}

TEST_CASE("invariants: a combined construct nested in itself counts an instance twice", "[invariants]") {
    Consistent c;
    // What the runtime built before combined constructs were folded: the
    // loop part as a child of the parallel part, same region.
    c.b.at(c.loop_node).threads = {with_exclusive(metrics(0, 6.0), 0.0), with_exclusive(metrics(1, 6.0), 0.0)};
    auto part = c.b.region_node(c.loop_node, c.loop, {with_exclusive(metrics(0, 6.0), 5.5), with_exclusive(metrics(1, 6.0), 4.0)});
    c.b.at(c.barrier_node).parent = part;
    CHECK(mentions(analyses::check_invariants(c.b.profile()), "nested directly in a node of the same construct"));
}

TEST_CASE("invariants: parallel coverage above the wall time", "[invariants]") {
    Consistent c;
    c.b.profile().wall_time_s = 5.0;
    c.b.at(0).threads[0].inclusive_s = 5.0;
    CHECK(mentions(analyses::check_invariants(c.b.profile()), "parallel coverage 6.000000 s > wall time 5.000000 s"));
}

TEST_CASE("invariants: overheads above the region's time", "[invariants]") {
    Consistent c;
    c.b.profile().overheads.regions[0].classes.imbalance_s = 13.0;
    CHECK(mentions(analyses::check_invariants(c.b.profile()), "overheads of R00001 13.000000 s > its total 12.000000 s"));
}

TEST_CASE("invariants: two properties diagnosing the same seconds", "[invariants]") {
    Consistent c;
    c.b.profile().properties.push_back({"ImbalanceInParallelLoop", c.loop, 7.5, ""});
    c.b.profile().properties.push_back({"ImbalanceInParallelRegion", c.loop, 7.5, ""});
    CHECK(mentions(analyses::check_invariants(c.b.profile()), "two properties of barrier waiting with the same severity"));
    SECTION("task creation properties of equal size are about different seconds") {
        auto& properties = c.b.profile().properties;
        properties = {{"TasksTooSmallForCreationCost", c.task, 0.5, ""},
                      {"TaskCreationConcentratedOnFewThreads", c.task, 0.5, ""}};
        CHECK(analyses::check_invariants(c.b.profile()).empty());
    }
}
