// Deep call paths (issue 10): folding below OMPP_MAX_DEPTH, iterative walks,
// a bounded text report.
#include <catch2/catch.hpp>

#include <string>

#include "config/options.hpp"
#include "core/measurement.hpp"
#include "event_stream.hpp"
#include "writers/json_writer.hpp"
#include "writers/text_writer.hpp"

using namespace ompp;
using model::NodeKind;
using test::kNs;
using test::region;
using test::thread_of;

namespace {

// Each level: enter at 10 * level, leave 10 ticks later on the way out.
void recurse(core::ThreadState& t, const core::RegionRecord& r, int levels) {
    for (int level = 0; level < levels; ++level) t.enter(r, 1000 + 10 * static_cast<core::Ticks>(level));
    const core::Ticks bottom = 1000 + 10 * static_cast<core::Ticks>(levels);
    for (int level = levels; level-- > 0;) t.exit(r, bottom + 10 * static_cast<core::Ticks>(levels - 1 - level));
}

std::size_t depth_of(const model::Profile& p, const model::Node& node) {
    std::size_t depth = 0;
    for (const model::Node* n = &node; n->parent; n = &p.nodes[*n->parent]) ++depth;
    return depth;
}

}  // namespace

TEST_CASE("a recursion deeper than the limit folds into one node per region", "[core][depth]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock(), 4);
    const auto& rec = region("userRegion", 900, "userRegionName=recursion*");
    const auto& leaf = region("userRegion", 910, "userRegionName=leaf*");
    core::ThreadState& t = m.this_thread();
    // 10 levels of rec, a leaf visit at the bottom.
    for (int level = 0; level < 10; ++level) t.enter(rec, 1000 + 10 * static_cast<core::Ticks>(level));
    t.enter(leaf, 1100);
    t.exit(leaf, 1150);
    for (int level = 10; level-- > 0;) t.exit(rec, 1160 + 10 * static_cast<core::Ticks>(9 - level));
    clock.at(2000);
    const model::Profile p = m.build_profile();
    CHECK(p.max_depth == 4);
    // Root, rec at depths 1-4 (4 is the fold point), rec and leaf folded under it.
    REQUIRE(p.nodes.size() == 7);
    const model::Node* fold_point = nullptr;
    for (const auto& node : p.nodes) {
        if (depth_of(p, node) == 4) fold_point = &node;
        CHECK(depth_of(p, node) <= 5);
    }
    REQUIRE(fold_point != nullptr);
    const auto* folded = test::find_child(p, fold_point->id, NodeKind::Region, rec.info.id);
    const auto* folded_leaf = test::find_child(p, fold_point->id, NodeKind::Region, leaf.info.id);
    REQUIRE(folded != nullptr);
    REQUIRE(folded_leaf != nullptr);
    CHECK(folded->recursion_depth == 6);  // levels 5 to 10
    CHECK(folded_leaf->recursion_depth == 1);
    CHECK(fold_point->recursion_depth == 0);
    const auto& fm = *thread_of(*folded, 0);
    CHECK(fm.visits == 6);
    // Level 5 ran from 1040 to 1210; the nested visits are inside it.
    CHECK(fm.inclusive_s == Approx(170 * kNs));
    // Everything below the fold point but the leaf's 50 ticks.
    CHECK(fm.exclusive_s == Approx(120 * kNs));
    const auto& pm = *thread_of(*fold_point, 0);
    CHECK(pm.inclusive_s == Approx(190 * kNs));  // 1030 to 1220
    CHECK(pm.exclusive_s == Approx(20 * kNs));   // minus 120 (rec) and 50 (leaf) folded below
    // The control flow shows the recursion: the folded node entered after itself.
    bool after_itself = false;
    for (const auto& pred : folded->predecessors) after_itself |= pred.node == folded->id && pred.count == 5;
    CHECK(after_itself);
    const std::string text = writers::to_text(p);
    CHECK(text.find("(recursion: 6 levels folded)") != std::string::npos);
    CHECK(writers::to_json(p)["nodes"][folded->id]["recursion_depth"] == 6);
}

TEST_CASE("a lock set below the fold point folds like any region: its wait is not the folded caller's", "[core][depth]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock(), 2);
    const auto& rec = region("userRegion", 920, "userRegionName=recursion*");
    const auto& locks = region("lock", 930, "lockName=deep*");
    int lock = 0;
    core::ThreadState& t = m.this_thread();
    t.enter(rec, 1000);
    t.enter(rec, 1010);  // the fold point
    t.enter(rec, 1020);  // folded
    t.lock_acquired(locks, &lock, 1030, 1050);
    t.lock_released(&lock, 1060, 1061);
    t.exit(rec, 1070);
    t.exit(rec, 1080);
    t.exit(rec, 1090);
    const model::Profile p = m.build_profile();
    const auto* outer = test::find_child(p, 0, NodeKind::Region, rec.info.id);
    REQUIRE(outer != nullptr);
    const auto* fold_point = test::find_child(p, outer->id, NodeKind::Region, rec.info.id);
    REQUIRE(fold_point != nullptr);
    const auto* folded = test::find_child(p, fold_point->id, NodeKind::Region, rec.info.id);
    const auto* lock_node = test::find_child(p, fold_point->id, NodeKind::Region, locks.info.id);
    REQUIRE(folded != nullptr);
    REQUIRE(lock_node != nullptr);
    CHECK(lock_node->recursion_depth == 1);
    const auto& lm = *thread_of(*lock_node, 0);
    CHECK(lm.visits == 1);
    CHECK(lm.inclusive_s == Approx(20 * kNs));
    CHECK(lm.enter_s == Approx(20 * kNs));
    CHECK(lm.body_s == Approx(10 * kNs));
    CHECK(lm.exit_s == Approx(1 * kNs));
    // The folded visit ran 1020-1070, 20 of it waiting for the lock.
    CHECK(thread_of(*folded, 0)->exclusive_s == Approx(30 * kNs));
}

TEST_CASE("depth 100,000 without folding: iterative walks, bounded text report", "[core][depth]") {
    test::ManualClock clock;
    constexpr int kLevels = 100000;
    core::Measurement m(clock.clock(), kLevels + 10);
    const auto& rec = region("userRegion", 920, "userRegionName=deep*");
    recurse(m.this_thread(), rec, kLevels);
    clock.at(1000 + 30 * kLevels);
    const model::Profile p = m.build_profile();
    REQUIRE(p.nodes.size() == kLevels + 1);
    CHECK(thread_of(p.nodes.back(), 0)->inclusive_s == Approx(10 * kNs));
    const std::string text = writers::to_text(p);
    // Every node's call path is printed for the first 64 levels only.
    CHECK(text.size() < 2'000'000);
    CHECK(text.find("99936 nodes deeper than 64 levels not shown") != std::string::npos);
    CHECK(writers::to_json(p)["nodes"].size() == kLevels + 1);
}

TEST_CASE("with the default limit, depth 100,000 is a small profile", "[core][depth]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& rec = region("userRegion", 930, "userRegionName=default*");
    recurse(m.this_thread(), rec, 100000);
    clock.at(10'000'000);
    const model::Profile p = m.build_profile();
    CHECK(p.nodes.size() == core::kDefaultMaxDepth + 2);
    CHECK(p.nodes.back().recursion_depth == 100000 - core::kDefaultMaxDepth);
}

TEST_CASE("entries past the frame bound are counted, not recorded, and their exits absorbed", "[core][depth]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock());
    const auto& rec = region("userRegion", 940, "userRegionName=bounded*");
    constexpr int kLevels = static_cast<int>(core::kMaxOpenFrames) + 1000;
    core::ThreadState& t = m.this_thread();
    recurse(t, rec, kLevels);
    CHECK(t.open_frames() == 0);
    clock.at(1000 + 30 * static_cast<core::Ticks>(kLevels));
    const model::Profile p = m.build_profile();
    CHECK(p.nodes.size() == core::kDefaultMaxDepth + 2);
    CHECK(p.nodes.back().recursion_depth == core::kMaxOpenFrames - core::kDefaultMaxDepth);
    // The outermost visit still spans the whole recursion.
    CHECK(thread_of(p.nodes[1], 0)->inclusive_s == Approx(20 * kLevels * kNs));
    REQUIRE(p.warnings.size() == 1);
    CHECK(p.warnings[0].occurrences == 1000);
    CHECK_THAT(p.warnings[0].text, Catch::Contains("were not recorded"));
}

TEST_CASE("OMPP_MAX_DEPTH's documented default is the measurement's", "[config][depth]") {
    CHECK(config::Config::defaults().integer("OMPP_MAX_DEPTH") == core::kDefaultMaxDepth);
}

// Inside a task the frames start below the task root (which has none): a
// recursion there folds at the limit all the same, and at OMPP_MAX_DEPTH=1
// the task root itself is the fold point (a frame then).
TEST_CASE("a recursion inside a task folds at the limit, the task root counted in the depth",
          "[core][depth][tasks]") {
    for (const std::uint32_t max_depth : {1u, 2u, 3u}) {
        CAPTURE(max_depth);
        test::ManualClock clock;
        core::Measurement m(clock.clock(), max_depth);
        const auto& rec = region("userRegion", 960, "userRegionName=in-task*");
        const auto& task = region("task", 970);
        core::ThreadState& t = m.this_thread();
        t.task_begin(task, t.new_task_handle(), 900);
        recurse(t, rec, 6);  // levels at depths 2 to 7
        t.task_end(task, 1200);
        const model::Profile p = m.build_profile();
        CHECK(p.warnings.empty());
        const model::Node* folded = nullptr;
        for (const auto& node : p.nodes) {
            if (node.region == rec.info.id && depth_of(p, node) == max_depth + 1) folded = &node;
            CHECK(depth_of(p, node) <= max_depth + 1);
        }
        REQUIRE(folded != nullptr);
        REQUIRE(folded->parent.has_value());
        const model::Node& fold_point = p.nodes[*folded->parent];
        CHECK(fold_point.kind == (max_depth == 1 ? NodeKind::TaskRoot : NodeKind::Region));
        CHECK(folded->recursion_depth == 7 - max_depth);  // the levels below the fold point
        // The outermost folded level: 1000 + 10 * (max_depth - 1) to the
        // matching exit, 1060 + 10 * (6 - max_depth).
        CHECK(thread_of(*folded, 0)->inclusive_s == Approx((60 + 10 * (7 - 2 * static_cast<double>(max_depth))) * kNs));
        CHECK(thread_of(*folded, 0)->visits == 7 - max_depth);
    }
}

// A task run at a scheduling point below the limit: its stub folds under the
// fold point (a frame on the implicit task, where a stub above the limit
// needs none), with the time the task ran and one switch per run.
TEST_CASE("a task run below the depth limit has its stub folded", "[core][depth][tasks]") {
    test::ManualClock clock;
    core::Measurement m(clock.clock(), 2);
    const auto& rec = region("userRegion", 930, "userRegionName=deep*");
    const auto& task = region("task", 940);
    const auto& taskwait = region("taskwait", 950);
    core::ThreadState& t = m.this_thread();
    for (int level = 0; level < 3; ++level) t.enter(rec, 1000 + static_cast<core::Ticks>(level));
    for (core::Ticks start : {1100, 1300}) {
        t.enter(taskwait, start);
        t.task_begin(task, t.new_task_handle(), start + 10);
        t.task_end(task, start + 40);
        t.exit(taskwait, start + 50);
    }
    for (int level = 3; level-- > 0;) t.exit(rec, 1500);
    const model::Profile p = m.build_profile();
    const model::Node* stub = nullptr;
    for (const auto& node : p.nodes) {
        if (node.kind == NodeKind::TaskStub) stub = &node;
    }
    REQUIRE(stub != nullptr);
    CHECK(depth_of(p, *stub) == 3);  // under the fold point, rec at depth 2
    REQUIRE(thread_of(*stub, 0) != nullptr);
    CHECK(thread_of(*stub, 0)->task_switches == 2);
    CHECK(thread_of(*stub, 0)->inclusive_s == Approx(60 * kNs));
    CHECK(p.warnings.empty());
}
