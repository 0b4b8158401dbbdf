#include "profile_index.hpp"

namespace ompp::analyses {

using model::Node;
using model::NodeKind;
using model::RegionKind;

bool is_parallel(RegionKind kind) {
    switch (kind) {
    case RegionKind::Parallel:
    case RegionKind::ParallelLoop:
    case RegionKind::ParallelSections:
    case RegionKind::ParallelMaster: return true;
    default: return false;
    }
}

const model::ThreadMetrics* metrics_of(const Node& node, std::uint32_t thread) {
    for (const auto& metrics : node.threads)
        if (metrics.thread == thread) return &metrics;
    return nullptr;
}

ProfileIndex::ProfileIndex(const model::Profile& profile)
    : profile_(profile), children_(profile.nodes.size()) {
    for (std::size_t i = 0; i < profile.regions.size(); ++i) region_pos_[profile.regions[i].id] = i;
    for (std::size_t i = 0; i < profile.nodes.size(); ++i) node_pos_[profile.nodes[i].id] = i;
    for (const auto& node : profile.nodes) {
        if (node.parent) {
            auto parent = node_pos_.find(*node.parent);
            if (parent != node_pos_.end()) children_[parent->second].push_back(node.id);
        }
        if (node.kind == NodeKind::TaskStub && node.region) stubs_by_task_[*node.region].push_back(node.id);
    }
    // One pass, parents before children, instead of a walk up per query:
    // call paths may be thousands of nodes deep.
    enclosing_parallel_.resize(profile.nodes.size(), nullptr);
    enclosing_task_root_.resize(profile.nodes.size(), nullptr);
    depth_.resize(profile.nodes.size(), 0);
    for (std::size_t i = 0; i < profile.nodes.size(); ++i) {
        const Node& node = profile.nodes[i];
        const auto parent = node.parent ? node_pos_.find(*node.parent) : node_pos_.end();
        const bool parent_before = parent != node_pos_.end() && parent->second < i;
        const Node* inherited_parallel = parent_before ? enclosing_parallel_[parent->second] : nullptr;
        const Node* inherited_task_root = parent_before ? enclosing_task_root_[parent->second] : nullptr;
        if (parent_before) depth_[i] = depth_[parent->second] + 1;
        const auto kind = region_kind(node);
        if (node.kind == NodeKind::TaskRoot) {
            enclosing_task_root_[i] = &node;
        } else {
            const bool parallel = node.kind == NodeKind::Region && kind && is_parallel(*kind);
            enclosing_parallel_[i] = parallel ? &node : inherited_parallel;
            enclosing_task_root_[i] = inherited_task_root;
        }
    }
}

const Node* ProfileIndex::node(std::uint32_t id) const {
    auto it = node_pos_.find(id);
    return it == node_pos_.end() ? nullptr : &profile_.nodes[it->second];
}

const Node* ProfileIndex::parent(const Node& node) const {
    return node.parent ? this->node(*node.parent) : nullptr;
}

std::span<const std::uint32_t> ProfileIndex::children(const Node& node) const {
    auto it = node_pos_.find(node.id);
    if (it == node_pos_.end()) return {};
    return children_[it->second];
}

const model::Region* ProfileIndex::region(std::optional<std::uint32_t> id) const {
    if (!id) return nullptr;
    auto it = region_pos_.find(*id);
    return it == region_pos_.end() ? nullptr : &profile_.regions[it->second];
}

std::optional<RegionKind> ProfileIndex::region_kind(const Node& node) const {
    const auto* r = region(node.region);
    if (!r) return std::nullopt;
    return r->kind;
}

const Node* ProfileIndex::enclosing_parallel(const Node& node) const {
    auto it = node_pos_.find(node.id);
    return it == node_pos_.end() ? nullptr : enclosing_parallel_[it->second];
}

const Node* ProfileIndex::enclosing_task_root(const Node& node) const {
    auto it = node_pos_.find(node.id);
    return it == node_pos_.end() ? nullptr : enclosing_task_root_[it->second];
}

std::size_t ProfileIndex::depth(const Node& node) const {
    auto it = node_pos_.find(node.id);
    return it == node_pos_.end() ? 0 : depth_[it->second];
}

double ProfileIndex::task_time(const Node& node, std::uint32_t thread) const {
    double total = 0;
    for (auto child_id : children(node)) {
        const Node* child = this->node(child_id);
        if (child->kind != NodeKind::TaskStub) continue;
        if (const auto* m = metrics_of(*child, thread)) total += m->inclusive_s;
    }
    return total;
}

double ProfileIndex::wait_time(const Node& node, const model::ThreadMetrics& metrics) const {
    double wait = metrics.inclusive_s - task_time(node, metrics.thread);
    return wait > 0 ? wait : 0.0;
}

double ProfileIndex::exit_barrier_wait(const Node& construct, std::uint32_t thread) const {
    double total = 0;
    for (auto child_id : children(construct)) {
        const Node* child = node(child_id);
        if (child->kind != NodeKind::ImplicitBarrier) continue;
        if (const auto* m = metrics_of(*child, thread)) total += wait_time(*child, *m);
    }
    return total;
}

double ProfileIndex::exit_barrier_time(const Node& construct, std::uint32_t thread) const {
    double total = 0;
    for (auto child_id : children(construct)) {
        const Node* child = node(child_id);
        if (child->kind != NodeKind::ImplicitBarrier) continue;
        if (const auto* m = metrics_of(*child, thread)) total += m->inclusive_s;
    }
    return total;
}

std::span<const std::uint32_t> ProfileIndex::stubs_of_task(std::uint32_t task_region) const {
    auto it = stubs_by_task_.find(task_region);
    if (it == stubs_by_task_.end()) return {};
    return it->second;
}

}  // namespace ompp::analyses
