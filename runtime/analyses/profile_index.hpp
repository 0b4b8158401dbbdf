// profile_index.hpp - navigation over a finished model::Profile for the
// analyses: node lookup by id, children lists, region kinds, and the derived
// per-thread quantities every analysis needs in the same way (time spent
// running tasks at a node, the implicit-barrier wait of a construct net of
// that task work).
//
// The model stores the call trees flattened (parents before children); the
// analyses walk them up and down, so the index builds both directions once.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "model/profile.hpp"

namespace ompp::analyses {

// PARALLEL, PARALLEL_LOOP, PARALLEL_SECTIONS, PARALLEL_MASTER: the constructs
// that own an overhead record (ompP: "PARALLEL*").
bool is_parallel(model::RegionKind kind);

// Sums one ThreadMetrics field over the threads of a node.
template <typename T>
T sum_over_threads(const model::Node& node, T model::ThreadMetrics::*field) {
    T total{};
    for (const auto& metrics : node.threads) total += metrics.*field;
    return total;
}

class ProfileIndex {
public:
    explicit ProfileIndex(const model::Profile& profile);

    const model::Profile& profile() const { return profile_; }
    const model::Node* node(std::uint32_t id) const;
    const model::Node* parent(const model::Node& node) const;
    std::span<const std::uint32_t> children(const model::Node& node) const;
    const model::Region* region(std::optional<std::uint32_t> id) const;
    // The kind of the construct a node measures; nullopt for the root.
    std::optional<model::RegionKind> region_kind(const model::Node& node) const;

    // Nearest node at or above `node` that is a PARALLEL* region node, not
    // looking past a task root (tasks run wherever a thread picks them up).
    const model::Node* enclosing_parallel(const model::Node& node) const;
    // The task root a node's subtree hangs from, if it is inside a task tree.
    const model::Node* enclosing_task_root(const model::Node& node) const;
    // Distance from the root (0 for the root).
    std::size_t depth(const model::Node& node) const;

    // Time `thread` spent running tasks at this node (its task_stub children).
    double task_time(const model::Node& node, std::uint32_t thread) const;
    // Time at this node not spent running tasks: inclusive − task_time.
    double wait_time(const model::Node& node, const model::ThreadMetrics& metrics) const;
    // ompP's exitBarT for one thread of a construct node: the waits in its
    // implicit barrier child nodes, net of task work done while waiting.
    double exit_barrier_wait(const model::Node& construct, std::uint32_t thread) const;
    // The same, with task work included (the whole time in the barrier).
    double exit_barrier_time(const model::Node& construct, std::uint32_t thread) const;

    // All task_stub nodes that ran tasks of the given TASK region.
    std::span<const std::uint32_t> stubs_of_task(std::uint32_t task_region) const;

private:
    const model::Profile& profile_;
    std::unordered_map<std::uint32_t, std::size_t> node_pos_;
    std::unordered_map<std::uint32_t, std::size_t> region_pos_;
    std::vector<std::vector<std::uint32_t>> children_;  // by node position
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> stubs_by_task_;
    std::vector<const model::Node*> enclosing_parallel_;   // by node position
    std::vector<const model::Node*> enclosing_task_root_;  // by node position
    std::vector<std::size_t> depth_;                       // by node position
};

const model::ThreadMetrics* metrics_of(const model::Node& node, std::uint32_t thread);

}  // namespace ompp::analyses
