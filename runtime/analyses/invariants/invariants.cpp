#include "analyses/invariants/invariants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>

#include "analyses/overheads/overheads.hpp"
#include "analyses/profile_index.hpp"
#include "model/report_text.hpp"
#include "model/names.hpp"

namespace ompp::analyses {

using model::Node;
using model::NodeKind;
using model::ThreadMetrics;

namespace {

// Times are sums of integer clock ticks converted to seconds, so sums that
// should agree differ only by rounding: a nanosecond per addend is plenty.
constexpr double kAbsoluteTolerance_s = 1e-6;
constexpr double kRelativeTolerance = 1e-9;

bool exceeds(double value, double limit) {
    return value > limit + kAbsoluteTolerance_s + kRelativeTolerance * std::abs(limit);
}
bool differs(double a, double b) { return exceeds(a, b) || exceeds(b, a); }

class Checker {
public:
    explicit Checker(const model::Profile& profile) : profile_(profile), index_(profile) {}

    std::vector<std::string> run() {
        for (const Node& node : profile_.nodes) {
            times_are_sane(node);
            children_fit(node);
            one_node_per_instance(node);
        }
        every_second_once();
        stubs_match_tasks();
        overheads_fit();
        coverage_fits();
        properties_are_distinct();
        return std::move(violations_);
    }

private:
    template <typename... Args>
    void violation(fmt::format_string<Args...> format, Args&&... args) {
        violations_.push_back(fmt::format(format, std::forward<Args>(args)...));
    }

    std::string name(const Node& node) const {
        const model::Region* region = index_.region(node.region);
        if (region == nullptr) return fmt::format("node {} ({})", node.id, model::to_string(node.kind));
        return fmt::format("node {} ({} of {} {} {})", node.id, model::to_string(node.kind),
                           model::region_number(region->id), model::report_name(region->kind),
                           model::source_range(profile_, *region));
    }

    void times_are_sane(const Node& node) {
        for (const ThreadMetrics& m : node.threads) {
            for (double value : {m.inclusive_s, m.exclusive_s, m.min_s, m.max_s, m.body_s, m.enter_s, m.exit_s,
                                 m.startup_s, m.shutdown_s, m.task_s}) {
                if (value < 0 || !std::isfinite(value)) {
                    violation("{}: thread {} has a negative or non-finite time ({})", name(node), m.thread, value);
                    return;
                }
            }
            if (exceeds(m.exclusive_s, m.inclusive_s)) {
                violation("{}: thread {} exclusive {:.6f} s > inclusive {:.6f} s", name(node), m.thread,
                          m.exclusive_s, m.inclusive_s);
            }
        }
    }

    // Per thread: inclusive = exclusive + the children's inclusive times.
    // Task trees are not children of the root's time (their time is inside
    // the stubs where they ran); a stub's time is the task's, counted there.
    void children_fit(const Node& node) {
        if (node.kind == NodeKind::TaskStub) {
            for (const ThreadMetrics& m : node.threads) {
                if (exceeds(m.exclusive_s, 0)) {
                    violation("{}: thread {} has exclusive time at a task stub (counted in the task tree)",
                              name(node), m.thread);
                }
            }
            return;
        }
        // Folded nodes (recursion_depth > 0) nest in each other: what they
        // add to their parent is their exclusive time, and their own
        // inclusive time counts only their outermost visits.
        std::map<std::uint32_t, double> children_s;
        for (std::uint32_t child_id : index_.children(node)) {
            const Node* child = index_.node(child_id);
            if (child->kind == NodeKind::TaskRoot) continue;
            for (const ThreadMetrics& m : child->threads) {
                children_s[m.thread] += child->recursion_depth > 0 ? m.exclusive_s : m.inclusive_s;
            }
        }
        if (node.recursion_depth > 0) return;
        for (const ThreadMetrics& m : node.threads) {
            const double children = children_s[m.thread];
            if (exceeds(children, m.inclusive_s)) {
                violation("{}: thread {} children's time {:.6f} s > its inclusive {:.6f} s", name(node), m.thread,
                          children, m.inclusive_s);
            } else if (differs(m.exclusive_s + children, m.inclusive_s)) {
                violation("{}: thread {} exclusive {:.6f} s + children {:.6f} s != inclusive {:.6f} s", name(node),
                          m.thread, m.exclusive_s, children, m.inclusive_s);
            }
        }
    }

    // A construct's instance is one visit of one node.  Worksharing and
    // synchronisation constructs cannot nest in themselves, so one directly
    // below a node of its own region is an instance counted twice.  A
    // parallel region may (recursion through a function that forks it), but
    // then it has a fork and a join: a combined construct's node without
    // either phase on every thread is its loop/sections/masked part counted
    // as a second instance.
    void one_node_per_instance(const Node& node) {
        if (node.kind != NodeKind::Region) return;
        const Node* parent = index_.parent(node);
        if (parent == nullptr || parent->kind != NodeKind::Region || parent->region != node.region) return;
        const auto kind = index_.region_kind(node);
        if (!kind || *kind == model::RegionKind::UserRegion || *kind == model::RegionKind::Master ||
            *kind == model::RegionKind::Masked || *kind == model::RegionKind::Lock ||
            *kind == model::RegionKind::Task) {
            return;  // may nest in themselves (recursive functions; a task run inside its creation)
        }
        if (is_parallel(*kind)) {
            const bool forked = std::any_of(node.threads.begin(), node.threads.end(), [](const ThreadMetrics& m) {
                return m.startup_s > 0 || m.shutdown_s > 0;
            });
            if (forked) return;
        }
        violation("{}: nested directly in a node of the same construct (one instance counted twice)", name(node));
    }

    // Σ exclusive over all nodes of a thread = the thread's measured time:
    // the root's inclusive time, or for a worker (no root entry) the
    // inclusive time of the nodes where its trees begin.
    void every_second_once() {
        std::map<std::uint32_t, double> exclusive_s, measured_s;
        for (const Node& node : profile_.nodes) {
            const Node* parent = index_.parent(node);
            for (const ThreadMetrics& m : node.threads) {
                exclusive_s[m.thread] += m.exclusive_s;
                const bool tree_begins =
                    node.kind == NodeKind::Root ||
                    (node.kind != NodeKind::TaskRoot && parent != nullptr && !metrics_of(*parent, m.thread));
                if (tree_begins) measured_s[m.thread] += m.inclusive_s;
            }
        }
        for (const auto& [thread, total] : exclusive_s) {
            if (differs(total, measured_s[thread])) {
                violation("thread {}: exclusive times add up to {:.6f} s, its measured time is {:.6f} s", thread,
                          total, measured_s[thread]);
            }
        }
    }

    // Per thread and task construct: time at the stubs = time in the task tree.
    void stubs_match_tasks() {
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<double, double>> stub_and_tree_s;
        for (const Node& node : profile_.nodes) {
            if (!node.region || (node.kind != NodeKind::TaskStub && node.kind != NodeKind::TaskRoot)) continue;
            for (const ThreadMetrics& m : node.threads) {
                auto& [stub, tree] = stub_and_tree_s[{*node.region, m.thread}];
                (node.kind == NodeKind::TaskStub ? stub : tree) += m.inclusive_s;
            }
        }
        for (const auto& [key, times] : stub_and_tree_s) {
            if (differs(times.first, times.second)) {
                violation("{} thread {}: tasks run at stubs {:.6f} s, in the task tree {:.6f} s",
                          model::region_number(key.first), key.second, times.first, times.second);
            }
        }
    }

    void overheads_fit() {
        const model::Overheads& overheads = profile_.overheads;
        if (exceeds(overheads.program.total(), overheads.total_s)) {
            violation("overheads of the program {:.6f} s > its total {:.6f} s", overheads.program.total(),
                      overheads.total_s);
        }
        for (const model::RegionOverheads& region : overheads.regions) {
            if (exceeds(region.classes.total(), region.total_s)) {
                violation("overheads of {} {:.6f} s > its total {:.6f} s", model::region_number(region.region),
                          region.classes.total(), region.total_s);
            }
        }
    }

    void coverage_fits() {
        const double covered = parallel_coverage(index_);
        if (exceeds(covered, profile_.wall_time_s)) {
            violation("parallel coverage {:.6f} s > wall time {:.6f} s", covered, profile_.wall_time_s);
        }
    }

    // The properties that diagnose time threads waited at a barrier: two
    // of them on one region with the same severity name the same seconds
    // twice (a barrier's wait is the construct's imbalance or the task
    // management's, not both).  Task-creation properties measure creation
    // time and may coincide in size with each other without overlapping.
    static bool diagnoses_barrier_wait(std::string_view name) {
        return name.starts_with("Imbalance") || name.starts_with("Unparallelized") || name == "WaitAtBarrier" ||
               name == "TaskManagementDominatesWaiting";
    }

    void properties_are_distinct() {
        std::set<std::pair<std::uint32_t, double>> seen;
        for (const model::Property& property : profile_.properties) {
            if (!property.region || property.severity_pct <= 0 || !diagnoses_barrier_wait(property.name)) continue;
            if (!seen.emplace(*property.region, property.severity_pct).second) {
                violation("{}: two properties of barrier waiting with the same severity {:.4f}% (the same time "
                          "diagnosed twice)",
                          model::region_number(*property.region), property.severity_pct);
            }
        }
    }

    const model::Profile& profile_;
    ProfileIndex index_;
    std::vector<std::string> violations_;
};

}  // namespace

std::vector<std::string> check_invariants(const model::Profile& profile) { return Checker(profile).run(); }

}  // namespace ompp::analyses
