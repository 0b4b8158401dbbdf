#include "analyses/overheads/overheads.hpp"

#include <algorithm>
#include <map>

namespace ompp::analyses {

using model::Node;
using model::NodeKind;
using model::OverheadClasses;
using model::RegionKind;

namespace {

OverheadClasses& operator+=(OverheadClasses& a, const OverheadClasses& b) {
    a.synchronization_s += b.synchronization_s;
    a.imbalance_s += b.imbalance_s;
    a.limited_parallelism_s += b.limited_parallelism_s;
    a.thread_management_s += b.thread_management_s;
    return a;
}

OverheadClasses scaled(const OverheadClasses& c, double factor) {
    return {c.synchronization_s * factor, c.imbalance_s * factor, c.limited_parallelism_s * factor,
            c.thread_management_s * factor};
}

double exit_barrier_sum(const ProfileIndex& index, const Node& node) {
    double total = 0;
    for (const auto& m : node.threads) total += index.exit_barrier_wait(node, m.thread);
    return total;
}

// ompP: sections whose count of executed sections reaches the count of
// thread-visits kept every thread busy, so their barrier wait is imbalance;
// fewer sections than threads leave threads idle: limited parallelism.
bool enough_sections(const Node& node) {
    return sum_over_threads(node, &model::ThreadMetrics::body_count) >=
           sum_over_threads(node, &model::ThreadMetrics::visits);
}

double startup_and_shutdown(const Node& node) {
    return sum_over_threads(node, &model::ThreadMetrics::startup_s) +
           sum_over_threads(node, &model::ThreadMetrics::shutdown_s);
}

OverheadClasses region_node_overheads(const ProfileIndex& index, const Node& node, RegionKind kind) {
    OverheadClasses c;
    switch (kind) {
    case RegionKind::Atomic:
    case RegionKind::Flush: c.synchronization_s = sum_over_threads(node, &model::ThreadMetrics::inclusive_s); break;
    case RegionKind::Barrier:
        for (const auto& m : node.threads) c.synchronization_s += index.wait_time(node, m);
        break;
    case RegionKind::Critical:
    case RegionKind::Lock:
    case RegionKind::Ordered:
        c.synchronization_s = sum_over_threads(node, &model::ThreadMetrics::enter_s);
        c.thread_management_s = sum_over_threads(node, &model::ThreadMetrics::exit_s);
        break;
    case RegionKind::Loop:
    case RegionKind::Workshare:
    case RegionKind::Scope: c.imbalance_s = exit_barrier_sum(index, node); break;
    case RegionKind::Parallel:
    case RegionKind::ParallelLoop:
    case RegionKind::ParallelMaster:
        c.imbalance_s = exit_barrier_sum(index, node);
        c.thread_management_s = startup_and_shutdown(node);
        break;
    case RegionKind::Sections:
    case RegionKind::ParallelSections: {
        double barrier = exit_barrier_sum(index, node);
        (enough_sections(node) ? c.imbalance_s : c.limited_parallelism_s) = barrier;
        if (kind == RegionKind::ParallelSections) {
            c.thread_management_s = startup_and_shutdown(node);
        } else {
            // ompP's mgmtT = execT − sectT − exitBarT; the whole barrier time
            // (task work included) is taken off so tasks never count here.
            for (const auto& m : node.threads)
                c.thread_management_s +=
                    std::max(0.0, m.inclusive_s - m.body_s - index.exit_barrier_time(node, m.thread));
        }
        break;
    }
    case RegionKind::Single: c.limited_parallelism_s = exit_barrier_sum(index, node); break;
    default: break;  // MASTER, USER REGION, TASK*, TASKWAIT, ...: no overhead in ompP's scheme
    }
    return c;
}

// Which parallel regions a node's overheads belong to, with weights summing
// to 1 (or nothing: outside any parallel region).
std::vector<std::pair<std::uint32_t, double>> owners(const ProfileIndex& index, const Node& node) {
    if (const Node* parallel = index.enclosing_parallel(node)) return {{*parallel->region, 1.0}};
    const Node* task_root = index.enclosing_task_root(node);
    if (!task_root || !task_root->region) return {};
    std::map<std::uint32_t, double> task_time_by_region;
    double total = 0;
    for (auto stub_id : index.stubs_of_task(*task_root->region)) {
        const Node* stub = index.node(stub_id);
        const Node* parallel = index.enclosing_parallel(*stub);
        if (!parallel) continue;
        double t = sum_over_threads(*stub, &model::ThreadMetrics::inclusive_s);
        task_time_by_region[*parallel->region] += t;
        total += t;
    }
    std::vector<std::pair<std::uint32_t, double>> result;
    for (auto [region, t] : task_time_by_region)
        if (total > 0) result.emplace_back(region, t / total);
    return result;
}

}  // namespace

OverheadClasses node_overheads(const ProfileIndex& index, const Node& node) {
    if (node.kind != NodeKind::Region) return {};
    auto kind = index.region_kind(node);
    return kind ? region_node_overheads(index, node, *kind) : OverheadClasses{};
}

double parallel_region_total(const Node& node) {
    double wallclock = 0;
    for (const auto& m : node.threads) wallclock = std::max(wallclock, m.inclusive_s);
    return wallclock * static_cast<double>(node.threads.size());
}

namespace {

bool inside_parallel(const ProfileIndex& index, const Node& node) {
    const Node* parent = index.parent(node);
    if (parent == nullptr) return false;
    if (index.enclosing_parallel(*parent) != nullptr) return true;
    const Node* task_root = index.enclosing_task_root(*parent);
    if (task_root == nullptr || !task_root->region) return false;
    for (auto stub_id : index.stubs_of_task(*task_root->region)) {
        if (index.enclosing_parallel(*index.node(stub_id)) != nullptr) return true;
    }
    return false;
}

}  // namespace

double parallel_coverage(const ProfileIndex& index) {
    double covered = 0;
    for (const auto& node : index.profile().nodes) {
        if (node.kind != NodeKind::Region || node.threads.empty()) continue;
        auto kind = index.region_kind(node);
        if (!kind || !is_parallel(*kind) || inside_parallel(index, node)) continue;
        covered += parallel_region_total(node) / static_cast<double>(node.threads.size());
    }
    return covered;
}

model::Overheads compute_overheads(const model::Profile& profile) {
    ProfileIndex index(profile);
    model::Overheads result;
    // ompP: duration x threads.  With nested parallelism more threads than
    // the largest team work at once: all threads measured are the basis.
    const auto threads = std::max<std::size_t>(profile.threads, profile.threads_info.size());
    result.total_s = profile.wall_time_s * static_cast<double>(threads);
    std::map<std::uint32_t, model::RegionOverheads> by_region;
    for (const auto& node : profile.nodes) {
        if (node.kind == NodeKind::Region && node.region) {
            auto kind = index.region_kind(node);
            if (kind && is_parallel(*kind)) {
                auto& record = by_region[*node.region];
                record.region = *node.region;
                record.total_s += parallel_region_total(node);
            }
        }
        OverheadClasses c = node_overheads(index, node);
        if (c.total() == 0) continue;
        result.program += c;
        for (auto [region, weight] : owners(index, node)) by_region[region].classes += scaled(c, weight);
    }
    for (auto& [id, record] : by_region) {
        record.region = id;
        result.regions.push_back(record);
    }
    std::stable_sort(result.regions.begin(), result.regions.end(), [](const auto& a, const auto& b) {
        return a.classes.total() > b.classes.total();
    });
    return result;
}

}  // namespace ompp::analyses
