// Edge labels and the control-flow report on hand-built profiles.
#include <catch2/catch.hpp>

#include "analyses/control_flow/control_flow.hpp"
#include "profile_builder.hpp"

using namespace ompp;
using model::RegionKind;
using test::metrics;
using test::ProfileBuilder;

TEST_CASE("threads with identical counts share one edge label", "[control_flow]") {
    using analyses::group_threads;
    CHECK(group_threads({{0, 5}, {1, 5}, {2, 5}, {3, 5}}) == "0-3|5");
    CHECK(group_threads({{3, 5}, {0, 5}, {2, 5}, {1, 5}, {5, 5}}) == "0-3,5|5");
    CHECK(group_threads({{0, 19}, {1, 20}, {2, 20}, {3, 20}}) == "0|19, 1-3|20");
    CHECK(group_threads({{0, 1}, {1, 2}, {2, 1}}) == "0,2|1, 1|2");
    CHECK(group_threads({}) == "");
}

TEST_CASE("control flow report and dot graph for the paper's version A", "[control_flow]") {
    ProfileBuilder b(1.0, 1);
    auto foo = b.region(RegionKind::UserRegion, 3, 5);
    auto bar = b.region(RegionKind::UserRegion, 7, 9);
    b.profile().regions[0].name = "foo";
    b.profile().regions[1].name = "bar";
    auto foo_node = b.region_node(0, foo, {metrics(0, 0.5, 20)});
    auto bar_node = b.region_node(0, bar, {metrics(0, 0.5, 20)});
    b.at(foo_node).predecessors = {{0, 0, 1}, {bar_node, 0, 19}};
    b.at(bar_node).predecessors = {{foo_node, 0, 20}};

    std::string out;
    analyses::append_control_flow_report(out, b.profile());
    CHECK(out.find("ompP Control Flow") != std::string::npos);
    CHECK(out.find("  -> R00001 USER REGION test.c (3-5) 'foo'\n") != std::string::npos);
    CHECK(out.find("after (parent) root") != std::string::npos);
    CHECK(out.find("0|1  [total 1]") != std::string::npos);
    CHECK(out.find("after R00002 USER REGION") != std::string::npos);
    CHECK(out.find("0|19  [total 19]") != std::string::npos);
    CHECK(out.find("0|20  [total 20]") != std::string::npos);
}
