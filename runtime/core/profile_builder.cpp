// Turns the per-thread trees into the model: one node per call path, with a
// metrics entry per thread that visited it.  Worker threads' trees are hung
// under the node where their team was forked, task trees under the root.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/measurement.hpp"

namespace ompp::core {
namespace {

using model::NodeKind;

std::optional<std::uint32_t> region_id(const Node& node) {
    if (node.region == nullptr) return std::nullopt;
    return node.region->info.id;
}

// A combined construct (parallel for, parallel sections, parallel master or
// masked) reports its inner construct on the parallel region's own handle,
// so in a thread's tree its parallel node has a child of the same region:
// the loop, sections or masked part.  The part is not a call of its own; the
// profile folds it into the parallel node, which stays the one node of the
// construct (execC = instances) with the part's children (its implicit
// barrier among them) hung from it.
bool is_combined(const RegionRecord* region) {
    if (region == nullptr) return false;
    switch (region->info.kind) {
    case model::RegionKind::ParallelLoop:
    case model::RegionKind::ParallelSections:
    case model::RegionKind::ParallelMaster: return true;
    default: return false;
    }
}

// The part of `node` when `node` is a combined construct's parallel node.
// Only called for nodes that are not parts themselves, so a part's child of
// the same region is a new instance of the construct (recursion), not a part.
const Node* combined_part(const Node& node) {
    if (node.kind != NodeKind::Region || !is_combined(node.region)) return nullptr;
    for (const Node* child = node.child_list(); child != nullptr; child = child->sibling()) {
        if (child->kind == NodeKind::Region && child->region == node.region && child->fork_origin == nullptr) {
            return child;
        }
    }
    return nullptr;
}

// The children `node` has in the profile: its own, with a combined
// construct's part replaced by the part's children; worker nodes are
// reached through their fork point instead.
template <typename Visitor>
void for_each_profile_child(const Node& node, Visitor&& visit) {
    const Node* part = combined_part(node);
    for (const Node* child = node.child_list(); child != nullptr; child = child->sibling()) {
        if (child->fork_origin != nullptr) continue;
        if (child != part) {
            visit(*child);
            continue;
        }
        for (const Node* inner = part->child_list(); inner != nullptr; inner = inner->sibling()) {
            if (inner->fork_origin == nullptr) visit(*inner);
        }
    }
}

class ProfileBuilder {
public:
    ProfileBuilder(model::Profile& profile, double seconds_per_tick, std::uint32_t max_depth)
        : profile_(profile), seconds_per_tick_(seconds_per_tick), max_depth_(max_depth) {}

    void build(const std::vector<const ThreadState*>& threads, double wall_s) {
        model::Node& root = profile_.nodes.emplace_back();
        root.kind = NodeKind::Root;
        if (threads.empty()) return;
        for (const ThreadState* thread : threads) index_workers(*thread);
        for (const ThreadState* thread : threads) {
            model_id_[&thread->root()] = 0;
            visit_root(*thread, thread == threads.front() ? std::optional<double>(wall_s) : std::nullopt);
        }
        // Workers whose fork point is not (yet) in any tree: under the root.
        for (const auto& [fork, starts] : workers_by_fork_) {
            for (const auto& [thread, start] : starts) {
                if (!visited_starts_.contains(start)) visit(*thread, *start, 0);
            }
        }
        complete_roots();
        resolve_predecessors();
        summarise_tasks();
    }

private:
    double seconds(std::uint64_t ticks) const { return static_cast<double>(ticks) * seconds_per_tick_; }

    // Every walk is iterative: call trees may be as deep as the program's
    // recursion (up to the fold depth), far deeper than the stack allows.
    void index_workers(const ThreadState& thread) {
        std::vector<const Node*> pending{&thread.root()};
        while (!pending.empty()) {
            const Node* node = pending.back();
            pending.pop_back();
            for (const Node* child = node->child_list(); child != nullptr; child = child->sibling()) {
                if (child->fork_origin != nullptr) {
                    workers_by_fork_[child->fork_origin].emplace_back(&thread, child);
                }
                pending.push_back(child);
            }
        }
    }

    std::uint32_t node_id(std::uint32_t parent, const Node& node) {
        const auto key = std::make_tuple(parent, static_cast<int>(node.kind), region_id(node).value_or(0));
        if (auto it = ids_.find(key); it != ids_.end()) return it->second;
        const auto id = static_cast<std::uint32_t>(profile_.nodes.size());
        model::Node& added = profile_.nodes.emplace_back();
        added.id = id;
        added.parent = parent;
        added.kind = node.kind;
        added.region = region_id(node);
        ids_.emplace(key, id);
        return id;
    }

    model::ThreadMetrics& metrics_of(std::uint32_t id, std::uint32_t thread) {
        auto& entries = profile_.nodes[id].threads;
        for (auto& entry : entries) {
            if (entry.thread == thread) return entry;
        }
        model::ThreadMetrics& added = entries.emplace_back();
        added.thread = thread;
        return added;
    }

    void visit_root(const ThreadState& thread, std::optional<double> wall_s) {
        double children_s = 0;
        bool has_regular_children = false;
        for (const Node* child = thread.root().child_list(); child != nullptr; child = child->sibling()) {
            if (child->fork_origin != nullptr) continue;  // reached through its fork point
            if (child->kind == NodeKind::TaskRoot) {
                visit(thread, *child, 0);
                continue;
            }
            has_regular_children = true;
            children_s += seconds(child->metrics.inclusive.get());
            visit(thread, *child, 0);
        }
        if (!wall_s && !has_regular_children) return;
        model::ThreadMetrics& root = metrics_of(0, thread.id());
        root.visits = 1;
        root.inclusive_s = std::max(wall_s.value_or(children_s), children_s);
        root.min_s = root.max_s = root.inclusive_s;
        root.exclusive_s = root.inclusive_s - children_s;
    }

    // Depth first, children in order, then the workers of a fork node (their
    // parallel-region node merges into the fork node's model node): model
    // ids are given in visiting order, so parents come before children.
    struct Visit {
        const ThreadState* thread;
        const Node* node;
        std::uint32_t parent_id;  // the model node's parent...
        bool merge;               // ...or, for a worker's start, the model node itself
    };

    // A worker's part of a region forked at the top level shares the fork
    // node below the root.  A worker that also has a root-level node of its
    // own (work done after its arrival at a region's end, in the runtime's
    // join barrier, outside any task it was told of: a C taskloop's tasks)
    // has a root entry, whose time must cover all its root-level children.
    void complete_roots() {
        std::map<std::uint32_t, double> children_s;
        for (const model::Node& node : profile_.nodes) {
            if (node.parent != 0u || node.kind == NodeKind::TaskRoot) continue;
            for (const auto& m : node.threads) children_s[m.thread] += node.recursion_depth > 0 ? m.exclusive_s : m.inclusive_s;
        }
        for (model::ThreadMetrics& root : profile_.nodes[0].threads) {
            const double children = children_s[root.thread];
            root.inclusive_s = root.min_s = root.max_s = std::max(root.inclusive_s, children);
            root.exclusive_s = root.inclusive_s - children;
        }
    }

    void visit(const ThreadState& thread, const Node& start, std::uint32_t parent_id) {
        std::vector<Visit> pending{{&thread, &start, parent_id, false}};
        std::vector<Visit> children;
        while (!pending.empty()) {
            const Visit next = pending.back();
            pending.pop_back();
            const Node& node = *next.node;
            if (next.merge && visited_starts_.contains(&node)) continue;
            const std::uint32_t id = next.merge ? next.parent_id : node_id(next.parent_id, node);
            enter(*next.thread, node, id);
            children.clear();
            for_each_profile_child(node, [&](const Node& child) { children.push_back({next.thread, &child, id, false}); });
            if (auto it = workers_by_fork_.find(&node); it != workers_by_fork_.end()) {
                for (const auto& [worker, worker_start] : it->second) children.push_back({worker, worker_start, id, true});
            }
            pending.insert(pending.end(), children.rbegin(), children.rend());
        }
    }

    void enter(const ThreadState& thread, const Node& node, std::uint32_t id) {
        model_id_[&node] = id;
        pending_predecessors_.emplace_back(id, thread.id(), &node);
        if (node.fork_origin != nullptr) visited_starts_.insert(&node);
        if (node.kind == NodeKind::TaskRoot) {
            auto& most = max_active_[region_id(node).value_or(0)];
            most = std::max(most, node.max_active_instances.get());
        }
        if (is_folded(node)) {
            std::uint64_t& deepest = profile_.nodes[id].recursion_depth;
            deepest = std::max(deepest, node.max_active_instances.get());
        }
        add_metrics(metrics_of(id, thread.id()), node);
        if (const Node* part = combined_part(node)) model_id_[part] = id;
    }

    bool is_folded(const Node& node) const { return node.depth > max_depth_; }

    void add_metrics(model::ThreadMetrics& out, const Node& node) {
        const NodeMetrics& m = node.metrics;
        const std::uint64_t visits = m.visits.get();
        const std::uint64_t inclusive = m.inclusive.get();
        std::uint64_t children = 0;
        std::uint64_t tasks = 0;
        std::array<std::uint64_t, model::kMaxCounters> children_counters{};
        for_each_profile_child(node, [&](const Node& child) {
            const std::uint64_t child_inclusive = child.metrics.inclusive.get();
            // Below the fold point, folded nodes' visits nest in each other:
            // their exclusive times add up to the time spent there.
            children += is_folded(child) ? child.metrics.folded_exclusive.get() : child_inclusive;
            for (std::size_t i = 0; i < model::kMaxCounters; ++i) {
                children_counters[i] += child.metrics.counters[i].get();
            }
            if (child.kind == NodeKind::TaskStub) tasks += child_inclusive;
            if (child.kind == NodeKind::ImplicitBarrier) {
                for (const Node* inner = child.child_list(); inner != nullptr; inner = inner->sibling()) {
                    if (inner->kind == NodeKind::TaskStub) tasks += inner->metrics.inclusive.get();
                }
            }
        });
        // sectT/sectC of a parallel sections construct are its sections part's.
        const Node* part = combined_part(node);
        const NodeMetrics& phases =
            part != nullptr && node.region->info.kind == model::RegionKind::ParallelSections ? part->metrics : m;
        // A task stub points at task execution, which the task tree counts:
        // its time is the stub's inclusive time only, so every second of a
        // thread is exclusive time of exactly one node.
        const bool counts_own_time = node.kind != NodeKind::TaskStub;
        if (visits > 0) {
            const double shortest = seconds(m.shortest.get());
            out.min_s = out.visits > 0 ? std::min(out.min_s, shortest) : shortest;
            out.max_s = std::max(out.max_s, seconds(m.longest.get()));
        }
        out.visits += visits;
        out.inclusive_s += seconds(inclusive);
        // A snapshot may see children updated after their parent: clamp.
        if (counts_own_time) {
            out.exclusive_s += is_folded(node) ? seconds(m.folded_exclusive.get())
                                               : seconds(inclusive > children ? inclusive - children : 0);
        }
        out.body_s += seconds(phases.body.get());
        out.body_count += phases.body_count.get();
        out.enter_s += seconds(m.enter.get());
        out.exit_s += seconds(m.exit.get());
        out.startup_s += seconds(m.startup.get());
        out.shutdown_s += seconds(m.shutdown.get());
        out.task_s += seconds(tasks);
        out.cpu_samples += m.cpu_samples.get();
        out.cpu_sampled_s += seconds(m.cpu_sampled.get());
        out.cpu_s += static_cast<double>(m.cpu_ns.get()) * 1e-9;
        out.run_delay_s += static_cast<double>(m.run_delay_ns.get()) * 1e-9;
        out.bytes += m.bytes.get();
        if (node.kind == NodeKind::TaskStub) out.task_switches += visits;
        for (std::size_t i = 0; i < model::kMaxCounters; ++i) {
            const std::uint64_t own = m.counters[i].get();
            out.counters_inclusive[i] += static_cast<double>(own);
            if (counts_own_time) {
                out.counters_exclusive[i] +=
                    static_cast<double>(own > children_counters[i] ? own - children_counters[i] : 0);
            }
        }
    }

    void resolve_predecessors() {
        std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint64_t> counts;
        for (const auto& [id, thread, node] : pending_predecessors_) {
            for (const PredecessorEntry* e = node->predecessor_list(); e != nullptr;
                 e = e->next.load(std::memory_order_acquire)) {
                auto it = model_id_.find(e->predecessor);
                if (it == model_id_.end()) continue;
                counts[{id, it->second, thread}] += e->count.get();
            }
        }
        for (const auto& [key, count] : counts) {
            const auto& [id, predecessor, thread] = key;
            profile_.nodes[id].predecessors.push_back({predecessor, thread, count});
        }
    }

    void summarise_tasks() {
        std::map<std::uint32_t, double> creation_s;
        std::map<std::uint32_t, model::TaskStatistics> tasks;
        std::map<std::uint32_t, std::uint64_t> run_apart;
        std::unordered_set<std::uint32_t> task_constructs;
        for (const model::Region& region : profile_.regions) {
            if (region.kind == model::RegionKind::Task) task_constructs.insert(region.id);
        }
        for (const model::Node& node : profile_.nodes) {
            if (node.kind != NodeKind::Region || !node.region) continue;
            // A task construct's creation node counts the instances run inside it.
            const bool task_construct = task_constructs.contains(*node.region);
            for (const auto& m : node.threads) {
                creation_s[*node.region] += m.inclusive_s;
                if (task_construct && m.body_count > 0) tasks[*node.region].included += m.body_count;
            }
        }
        for (const model::Node& node : profile_.nodes) {
            if (node.kind != NodeKind::TaskRoot || !node.region) continue;
            model::TaskStatistics& stats = tasks[*node.region];
            std::uint64_t& apart = run_apart[*node.region];
            double total = stats.mean_s * static_cast<double>(apart);
            for (const auto& m : node.threads) {
                if (m.visits == 0) continue;
                stats.min_s = apart > 0 ? std::min(stats.min_s, m.min_s) : m.min_s;
                stats.max_s = std::max(stats.max_s, m.max_s);
                apart += m.visits;
                total += m.inclusive_s;
            }
            stats.mean_s = apart > 0 ? total / static_cast<double>(apart) : 0;
        }
        for (auto& [region, stats] : tasks) {
            stats.region = region;
            stats.instances = run_apart[region] + stats.included;
            stats.creation_s = creation_s[region];
            stats.max_concurrent_per_thread = max_active_[region];
            profile_.tasks.push_back(stats);
        }
    }

    model::Profile& profile_;
    const double seconds_per_tick_;
    const std::uint32_t max_depth_;
    std::unordered_map<const Node*, std::vector<std::pair<const ThreadState*, const Node*>>> workers_by_fork_;
    std::unordered_set<const Node*> visited_starts_;
    std::unordered_map<const Node*, std::uint32_t> model_id_;
    std::map<std::tuple<std::uint32_t, int, std::uint32_t>, std::uint32_t> ids_;
    std::vector<std::tuple<std::uint32_t, std::uint32_t, const Node*>> pending_predecessors_;
    std::unordered_map<std::uint32_t, std::uint64_t> max_active_;
};

// Equal texts from several threads are one warning; indexed, as there may
// be thousands.
class WarningMerger {
public:
    explicit WarningMerger(std::vector<model::Warning>& into) : into_(into) {}
    void add(const model::Warning& warning) {
        const auto [it, added] = index_.try_emplace(warning.text, into_.size());
        if (added) {
            into_.push_back(warning);
        } else {
            into_[it->second].occurrences += warning.occurrences;
        }
    }

private:
    std::vector<model::Warning>& into_;
    std::unordered_map<std::string, std::size_t> index_;
};

// The deepest directory holding every absolute region file, with its
// trailing '/'; empty when there are none (files compiled by relative names
// are short already).  One file: its directory.
std::string common_source_directory(const std::vector<model::Region>& regions) {
    std::optional<std::string> common;
    for (const model::Region& region : regions) {
        for (const std::string* file : {&region.directive.file, &region.block_end.file}) {
            if (!file->starts_with('/')) continue;
            const std::string directory = file->substr(0, file->rfind('/') + 1);
            if (!common) {
                common = directory;
                continue;
            }
            const auto mismatch = std::mismatch(common->begin(), common->end(), directory.begin(), directory.end());
            common->erase(mismatch.first, common->end());
            common->erase(common->rfind('/') + 1);  // a whole directory
        }
    }
    return common && *common != "/" ? *common : "";
}

}  // namespace

model::Profile Measurement::build_profile() const {
    // The untimed visits the instrumented code counted on this thread since
    // its last event (other threads add theirs at their next event, or at
    // the end of the measurement).
    if (ThreadState* own = known_thread()) own->add_untimed_counts();
    model::Profile profile;
    const RegionRegistry& registry = RegionRegistry::instance();
    profile.regions = registry.regions();
    profile.source_root = common_source_directory(profile.regions);
    std::vector<const ThreadState*> threads;
    for_each_thread([&](const ThreadState& thread) { threads.push_back(&thread); });
    const double seconds_per_tick = clock_.seconds_per_tick();
    const Ticks now = clock_.now();
    profile.wall_time_s = static_cast<double>(now > start_ ? now - start_ : 0) * seconds_per_tick;
    profile.threads = std::max<std::uint32_t>(max_team_size(), 1);
    profile.max_depth = max_depth_;
    ProfileBuilder(profile, seconds_per_tick, max_depth_).build(threads, profile.wall_time_s);
    WarningMerger warnings(profile.warnings);
    for (const ThreadState* thread : threads) {
        profile.threads_info.push_back({thread->id(), thread->team_level(), thread->parent_thread()});
        for (const model::Warning& warning : thread->warnings()) warnings.add(warning);
    }
    for (const std::uint32_t thread : interrupted_threads()) {
        model::Warning warning;
        warning.text = fmt::format("thread {} was inside an event when the program ended (interrupted by the "
                                   "signal?); its open regions are not closed and count up to its last event",
                                   thread);
        warnings.add(warning);
    }
    for (const std::string& problem : registry.problems()) {
        model::Warning warning;
        warning.text = problem;
        warnings.add(warning);
    }
    return profile;
}

}  // namespace ompp::core
