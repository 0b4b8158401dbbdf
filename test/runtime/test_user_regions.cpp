// User regions named at run time (issue 10): a region is its name.
#include <catch2/catch.hpp>

#include <pomp2/pomp2_ompp.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "adapter/lifecycle.hpp"
#include "core/region_registry.hpp"
#include "event_stream.hpp"

using namespace ompp;
using model::NodeKind;
using test::find_child;
using test::thread_of;

namespace {

const model::Region* region_named(const model::Profile& p, const std::string& name) {
    for (const auto& region : p.regions) {
        if (region.kind == model::RegionKind::UserRegion && region.name == name) return &region;
    }
    return nullptr;
}

model::Profile finish() { return adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults()); }

}  // namespace

TEST_CASE("user regions named at run time from one call site: one region per name, nesting kept", "[adapter][names]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle site = nullptr;
    std::string outer = "dyn-outer", inner = "dyn-inner";
    POMP2_USER_Begin_named(&site, outer.c_str(), "dyn.cpp", 5);
    clock.at(1100);
    POMP2_USER_Begin_named(&site, inner.c_str(), "dyn.cpp", 5);
    clock.at(1150);
    POMP2_USER_End_named(inner.c_str(), "dyn.cpp", 7);
    clock.at(1200);
    POMP2_USER_End_named(outer.c_str(), "dyn.cpp", 8);
    const model::Profile p = finish();
    const auto* o = region_named(p, outer);
    const auto* i = region_named(p, inner);
    REQUIRE(o != nullptr);
    REQUIRE(i != nullptr);
    const auto* on = find_child(p, 0, NodeKind::Region, o->id);
    REQUIRE(on != nullptr);
    const auto* in = find_child(p, on->id, NodeKind::Region, i->id);
    REQUIRE(in != nullptr);
    CHECK(thread_of(*in, 0)->inclusive_s == Approx(50e-9));
    CHECK(thread_of(*on, 0)->inclusive_s == Approx(200e-9));
    CHECK(p.warnings.empty());
}

TEST_CASE("a user region from the macros reports the line of its end", "[adapter][names]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle site = nullptr;
    POMP2_USER_Begin_named(&site, "ended-later", "ends.cpp", 12);
    POMP2_USER_End_named("ended-later", "ends.cpp", 31);
    const model::Profile p = finish();
    const auto* region = region_named(p, "ended-later");
    REQUIRE(region != nullptr);
    CHECK(region->directive.first_line == 12);
    CHECK(region->block_end.last_line == 31);
}

TEST_CASE("the same name at two call sites is one region", "[adapter][names]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle first_site = nullptr, second_site = nullptr;
    POMP2_USER_Begin_named(&first_site, "two-sites", "a.cpp", 1);
    POMP2_USER_End_named("two-sites", "a.cpp", 2);
    POMP2_USER_Begin_named(&second_site, "two-sites", "b.cpp", 9);
    POMP2_USER_End_named("two-sites", "b.cpp", 10);
    CHECK(first_site == second_site);
    const model::Profile p = finish();
    const auto* r = region_named(p, "two-sites");
    REQUIRE(r != nullptr);
    CHECK(thread_of(*find_child(p, 0, NodeKind::Region, r->id), 0)->visits == 2);
}

TEST_CASE("40,000 run-time names: all distinct regions, each end matches its begin", "[adapter][names]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle site = nullptr;
    constexpr int kNames = 40000;
    for (int n = 0; n < kNames; ++n) {
        const std::string name = "many-" + std::to_string(n);
        POMP2_USER_Begin_named(&site, name.c_str(), "many.cpp", 3);
        POMP2_USER_End_named(name.c_str(), "many.cpp", 4);
    }
    const model::Profile p = finish();
    std::size_t found = 0;
    for (const auto& node : p.nodes) {
        if (node.parent == 0u && node.kind == NodeKind::Region && thread_of(node, 0)->visits == 1) ++found;
    }
    CHECK(found == kNames);
    CHECK(region_named(p, "many-39999") != nullptr);
    CHECK(p.warnings.empty());
}

TEST_CASE("a mismatched end names both regions", "[adapter][names]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle site = nullptr;
    POMP2_USER_Begin_named(&site, "begun", "m.cpp", 11);
    POMP2_USER_End_named("never-begun", "m.cpp", 12);
    POMP2_USER_End_named("begun", "m.cpp", 13);
    const model::Profile p = finish();
    REQUIRE(p.warnings.size() == 1);
    CHECK_THAT(p.warnings[0].text, Catch::Contains("'never-begun' ended at m.cpp:12"));
    CHECK_THAT(p.warnings[0].text, Catch::Contains("'begun' m.cpp (11-11)"));
}

TEST_CASE("run-time names registered by several threads at once are interned once", "[core][names]") {
    auto& registry = core::RegionRegistry::instance();
    constexpr int kThreads = 4, kNames = 2000;
    std::vector<std::vector<const core::RegionRecord*>> seen(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int n = 0; n < kNames; ++n) {
                seen[t].push_back(&registry.user_region("race-" + std::to_string(n), "race.cpp", t));
            }
        });
    }
    for (auto& thread : threads) thread.join();
    std::set<const core::RegionRecord*> distinct;
    for (int n = 0; n < kNames; ++n) {
        for (int t = 1; t < kThreads; ++t) CHECK(seen[t][n] == seen[0][n]);
        distinct.insert(seen[0][n]);
        CHECK(*seen[0][n]->info.name == "race-" + std::to_string(n));
    }
    CHECK(distinct.size() == kNames);
}
