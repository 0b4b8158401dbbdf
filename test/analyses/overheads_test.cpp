// Exact checks of ompP's overhead attribution rules on hand-built profiles.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/overheads/overheads.hpp"
#include "analyses/overheads/overheads_report.hpp"
#include "profile_builder.hpp"

using namespace ompp;
using model::NodeKind;
using model::RegionKind;
using test::metrics;
using test::ProfileBuilder;

namespace {

const model::RegionOverheads* record_of(const model::Overheads& o, std::uint32_t region) {
    for (const auto& r : o.regions)
        if (r.region == region) return &r;
    return nullptr;
}

// A parallel region of 4 threads (10 s each) with a contended critical
// section and an implicit barrier in which thread 1 ran a task for 0.2 s.
struct ContendedCritical {
    ProfileBuilder b{10.0, 4};
    std::uint32_t parallel = b.region(RegionKind::Parallel, 10, 30);
    std::uint32_t critical = b.region(RegionKind::Critical, 12, 14);
    std::uint32_t task = b.region(RegionKind::Task, 16, 17);
    std::uint32_t parallel_node;

    ContendedCritical() {
        std::vector<model::ThreadMetrics> team;
        for (std::uint32_t t = 0; t < 4; ++t) {
            auto m = metrics(t, 10.0);
            m.startup_s = t == 0 ? 0.0 : 0.1;
            m.shutdown_s = 0.05;
            team.push_back(m);
        }
        parallel_node = b.region_node(0, parallel, team);
        std::vector<model::ThreadMetrics> crit;
        for (std::uint32_t t = 0; t < 4; ++t) {
            auto m = metrics(t, 1.0 + t);
            m.enter_s = t;  // 0 + 1 + 2 + 3 = 6 s waiting to enter
            m.exit_s = 0.01;
            m.body_s = 1.0;
            crit.push_back(m);
        }
        b.region_node(parallel_node, critical, crit);
        auto barrier = b.node(parallel_node, NodeKind::ImplicitBarrier, parallel,
                              {metrics(0, 0.5), metrics(1, 0.5), metrics(2, 0.5), metrics(3, 0.5)});
        b.node(barrier, NodeKind::TaskStub, task, {metrics(1, 0.2)});
    }
};

}  // namespace

TEST_CASE("contended critical section: enterT is synchronization, exitT and fork/join are management",
          "[overheads]") {
    ContendedCritical s;
    auto o = analyses::compute_overheads(s.b.profile());
    CHECK(o.total_s == Approx(40.0));
    const auto* r = record_of(o, s.parallel);
    REQUIRE(r);
    CHECK(r->total_s == Approx(40.0));
    CHECK(r->classes.synchronization_s == Approx(6.0));
    // barrier 4 x 0.5 s minus the 0.2 s task thread 1 ran while waiting
    CHECK(r->classes.imbalance_s == Approx(1.8));
    CHECK(r->classes.limited_parallelism_s == Approx(0.0));
    CHECK(r->classes.thread_management_s == Approx(0.3 + 0.2 + 0.04));
    CHECK(o.program.synchronization_s == Approx(6.0));
    CHECK(o.program.total() == Approx(6.0 + 1.8 + 0.54));
}

TEST_CASE("sections, single, explicit barrier and atomic follow ompP's table", "[overheads]") {
    ProfileBuilder b(5.0, 4);
    auto parallel = b.region(RegionKind::Parallel);
    auto sections = b.region(RegionKind::Sections);
    auto single = b.region(RegionKind::Single);
    auto barrier = b.region(RegionKind::Barrier);
    auto atomic = b.region(RegionKind::Atomic);
    auto task = b.region(RegionKind::Task);
    auto par = b.region_node(0, parallel, {metrics(0, 5), metrics(1, 5), metrics(2, 5), metrics(3, 5)});

    // 2 sections for 4 threads: not enough sections -> limited parallelism.
    std::vector<model::ThreadMetrics> sect;
    const double body[] = {2, 2, 0, 0}, wait[] = {1, 1, 3, 3};
    for (std::uint32_t t = 0; t < 4; ++t) {
        auto m = metrics(t, 3.5);
        m.body_s = body[t];
        m.body_count = body[t] > 0 ? 1 : 0;
        sect.push_back(m);
    }
    auto sect_node = b.region_node(par, sections, sect);
    b.node(sect_node, NodeKind::ImplicitBarrier, sections,
           {metrics(0, wait[0]), metrics(1, wait[1]), metrics(2, wait[2]), metrics(3, wait[3])});

    auto single_node = b.region_node(par, single, {metrics(0, 2), metrics(1, 2), metrics(2, 2), metrics(3, 2)});
    b.node(single_node, NodeKind::ImplicitBarrier, single,
           {metrics(0, 0), metrics(1, 2), metrics(2, 2), metrics(3, 2)});

    auto barrier_node = b.region_node(par, barrier, {metrics(0, 1), metrics(1, 1), metrics(2, 1), metrics(3, 1)});
    b.node(barrier_node, NodeKind::TaskStub, task, {metrics(0, 0.5)});
    b.region_node(par, atomic, {metrics(0, 0.1, 100), metrics(1, 0.1, 100), metrics(2, 0.1, 100), metrics(3, 0.1, 100)});

    auto o = analyses::compute_overheads(b.profile());
    const auto* r = record_of(o, parallel);
    REQUIRE(r);
    CHECK(r->classes.limited_parallelism_s == Approx(8.0 + 6.0));
    CHECK(r->classes.imbalance_s == Approx(0.0));
    CHECK(r->classes.synchronization_s == Approx(3.5 + 0.4));
    // SECTIONS mgmtT = execT - sectT - barrier = 3.5 - 2 - 1 (threads 0,1), 3.5 - 0 - 3 (threads 2,3)
    CHECK(r->classes.thread_management_s == Approx(4 * 0.5));

    SECTION("as many sections as thread-visits: the barrier wait is imbalance") {
        for (auto& m : b.at(sect_node).threads) m.body_count = 1;
        auto o2 = analyses::compute_overheads(b.profile());
        const auto* r2 = record_of(o2, parallel);
        CHECK(r2->classes.imbalance_s == Approx(8.0));
        CHECK(r2->classes.limited_parallelism_s == Approx(6.0));
    }
}

TEST_CASE("loop imbalance, nested parallel regions and task trees", "[overheads]") {
    ProfileBuilder b(4.0, 2);
    auto outer = b.region(RegionKind::Parallel);
    auto loop = b.region(RegionKind::Loop);
    auto inner = b.region(RegionKind::Parallel);
    auto inner_critical = b.region(RegionKind::Critical);
    auto task = b.region(RegionKind::Task);
    auto task_critical = b.region(RegionKind::Critical);

    auto outer_node = b.region_node(0, outer, {metrics(0, 4), metrics(1, 4)});
    auto loop_node = b.region_node(outer_node, loop, {metrics(0, 3), metrics(1, 3)});
    auto loop_barrier = b.node(loop_node, NodeKind::ImplicitBarrier, loop, {metrics(0, 2.0), metrics(1, 0.0)});
    b.node(loop_barrier, NodeKind::TaskStub, task, {metrics(0, 1.5)});

    auto inner_node = b.region_node(outer_node, inner, {metrics(0, 1), metrics(2, 1)});
    auto crit = metrics(2, 0.5);
    crit.enter_s = 0.25;
    b.region_node(inner_node, inner_critical, {crit});
    auto inner_barrier = b.node(inner_node, NodeKind::ImplicitBarrier, inner, {metrics(0, 0.5), metrics(2, 0)});
    b.node(inner_barrier, NodeKind::TaskStub, task, {metrics(0, 0.5)});

    // The task tree: a critical section inside the task, 1 s waiting to
    // enter.  Task instances ran 1.5 s in the outer region, 0.5 s in the inner.
    auto task_root = b.node(0, NodeKind::TaskRoot, task, {metrics(0, 2.0, 4)});
    auto task_crit = metrics(0, 1.2);
    task_crit.enter_s = 1.0;
    b.region_node(task_root, task_critical, {task_crit});

    auto o = analyses::compute_overheads(b.profile());
    const auto* r_outer = record_of(o, outer);
    const auto* r_inner = record_of(o, inner);
    REQUIRE(r_outer);
    REQUIRE(r_inner);
    CHECK(r_outer->classes.imbalance_s == Approx(0.5));  // 2.0 - 1.5 task work
    CHECK(r_outer->classes.synchronization_s == Approx(0.75));
    CHECK(r_inner->classes.synchronization_s == Approx(0.25 + 0.25));
    CHECK(r_inner->classes.imbalance_s == Approx(0.0));
    CHECK(r_inner->total_s == Approx(2.0));
    CHECK(o.program.synchronization_s == Approx(1.25));
    CHECK(o.program.imbalance_s == Approx(0.5));
    // sorted by overhead, largest first
    CHECK(o.regions.front().region == outer);
}

TEST_CASE("the overhead report has ompP's tables", "[overheads][report]") {
    ContendedCritical s;
    auto& profile = s.b.profile();
    profile.overheads = analyses::compute_overheads(profile);
    std::string out;
    analyses::append_overhead_report(out, profile);
    CHECK(out.find("ompP Overhead Analysis Report") != std::string::npos);
    CHECK(out.find("Total runtime (wallclock)   : 10.00 sec [4 threads]") != std::string::npos);
    CHECK(out.find("Number of parallel regions  : 1") != std::string::npos);
    CHECK(out.find("Parallel coverage           : 10.00 sec (100.00%)") != std::string::npos);
    CHECK(out.find("Overheads wrt. each individual parallel region:") != std::string::npos);
    CHECK(out.find("Overheads wrt. whole program:") != std::string::npos);
    // R00001: total 40, overheads 8.34 (20.85%), synch 6 (15%)
    CHECK(out.find("R00001     40.00     8.34 (20.85)      6.00 (15.00)      1.80 ( 4.50)") != std::string::npos);
    CHECK(out.find("   SUM     40.00     8.34 (20.85)") != std::string::npos);
}
