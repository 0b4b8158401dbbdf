// Snapshot summaries, the bounded store and the taker, with a scripted
// profile source and clock.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "profile_builder.hpp"
#include "analyses/snapshots/snapshots.hpp"

using namespace ompp;
using model::NodeKind;
using model::RegionKind;
using test::metrics;
using test::ProfileBuilder;

namespace {

// A program that has run `step` iterations of a loop in a parallel region.
model::Profile profile_after(int step) {
    ProfileBuilder b(step * 0.1, 2);
    auto parallel = b.region(RegionKind::Parallel);
    auto loop = b.region(RegionKind::Loop);
    auto par = b.region_node(0, parallel, {metrics(0, step * 0.1, step), metrics(1, step * 0.1, step)});
    auto loop_node = b.region_node(par, loop, {metrics(0, step * 0.05, step), metrics(1, step * 0.05, step)});
    b.node(loop_node, NodeKind::ImplicitBarrier, loop, {metrics(0, step * 0.01, step), metrics(1, 0.0, step)});
    for (auto& n : b.profile().nodes)
        for (auto& m : n.threads) m.counters_exclusive[0] = 1000.0 * step;
    return b.profile();
}

}  // namespace

TEST_CASE("a snapshot sums visits, exclusive time and counters per region", "[snapshots]") {
    auto s = snapshots::summarize(profile_after(3), 0.3, "three");
    CHECK(s.time_s == Approx(0.3));
    CHECK(s.label == "three");
    REQUIRE(s.regions.size() == 2);
    CHECK(s.regions[0].region == 1);
    CHECK(s.regions[0].visits == 6);
    CHECK(s.regions[0].exclusive_s == Approx(0.6));
    CHECK(s.regions[1].visits == 6);  // barrier visits are not loop visits
    CHECK(s.regions[1].exclusive_s == Approx(0.3 + 0.03));
    CHECK(s.regions[1].counters_exclusive[0] == Approx(4 * 3000.0));
    CHECK(s.overheads.imbalance_s == Approx(0.03));
}

TEST_CASE("the store keeps at most its capacity by thinning unlabelled snapshots", "[snapshots]") {
    snapshots::SnapshotStore store(4);
    auto snap = [](double t, std::optional<std::string> label = std::nullopt) {
        model::Snapshot s;
        s.time_s = t;
        s.label = std::move(label);
        return s;
    };
    CHECK_FALSE(store.add(snap(1)));
    CHECK_FALSE(store.add(snap(2, "user")));
    CHECK_FALSE(store.add(snap(3)));
    CHECK_FALSE(store.add(snap(4)));
    CHECK(store.add(snap(5)));  // full: periodic 1,3,4 -> 1,4 kept
    auto kept = store.contents();
    REQUIRE(kept.size() == 4);
    CHECK(kept[0].time_s == 1);
    CHECK(kept[1].time_s == 2);
    CHECK(kept[2].time_s == 4);
    CHECK(kept[3].time_s == 5);
    CHECK(store.thinnings() == 1);

    snapshots::SnapshotStore labelled(2);
    labelled.add(snap(1, "a"));
    labelled.add(snap(2, "b"));
    labelled.add(snap(3, "c"));  // nothing to thin: dropped and counted
    CHECK(labelled.contents().size() == 2);
    CHECK(labelled.dropped() == 1);
}

TEST_CASE("snapshots taken on demand are cumulative and in time order", "[snapshots]") {
    int step = 0;
    double now = 0;
    snapshots::SnapshotTaker taker([&] { return profile_after(step); }, [&] { return now; }, {0.0, 16});
    for (step = 1; step <= 5; ++step) {
        now = step * 0.1;
        taker.take(step == 3 ? std::optional<std::string>("middle") : std::nullopt);
    }
    auto taken = taker.snapshots();
    REQUIRE(taken.size() == 5);
    CHECK(taken[2].label == "middle");
    for (std::size_t i = 1; i < taken.size(); ++i) {
        CHECK(taken[i].time_s > taken[i - 1].time_s);
        CHECK(taken[i].regions[0].visits >= taken[i - 1].regions[0].visits);
        CHECK(taken[i].regions[1].exclusive_s > taken[i - 1].regions[1].exclusive_s);
        CHECK(taken[i].overheads.imbalance_s >= taken[i - 1].overheads.imbalance_s);
    }
    taker.stop();
    taker.take("after stop");
    CHECK(taker.snapshots().size() == 5);
}

TEST_CASE("the periodic thread takes snapshots until stopped and doubles its interval when full", "[snapshots]") {
    std::atomic<int> calls{0};
    auto start = std::chrono::steady_clock::now();
    snapshots::SnapshotTaker taker([&] { return profile_after(++calls); },
                                   [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); },
                                   {0.01, 4});
    taker.start();
    // generous: 4 snapshots need >= 0.04 s of interval; allow a slow machine 5 s
    for (int i = 0; i < 500 && taker.thinnings() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    taker.stop();
    int after_stop = calls.load();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(calls.load() == after_stop);
    CHECK(taker.thinnings() >= 1);
    CHECK(taker.interval_s() >= 0.02);
    auto taken = taker.snapshots();
    REQUIRE(taken.size() >= 2);
    CHECK(taken.size() <= 4);
    for (std::size_t i = 1; i < taken.size(); ++i) CHECK(taken[i].time_s >= taken[i - 1].time_s);
}
