#include "analyses/control_flow/control_flow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "analyses/profile_index.hpp"
#include "model/report_text.hpp"
#include "model/names.hpp"

namespace ompp::analyses {

using model::Node;
using model::NodeKind;

namespace {

std::string thread_ranges(const std::vector<std::uint32_t>& threads) {
    std::string out;
    for (std::size_t i = 0; i < threads.size();) {
        std::size_t j = i;
        while (j + 1 < threads.size() && threads[j + 1] == threads[j] + 1) ++j;
        if (!out.empty()) out += ',';
        out += j == i ? fmt::format("{}", threads[i]) : fmt::format("{}-{}", threads[i], threads[j]);
        i = j + 1;
    }
    return out;
}

std::string node_label(const model::Profile& profile, const ProfileIndex& index, const Node& node) {
    const auto* region = index.region(node.region);
    std::string region_text = region ? fmt::format("{} {} {}", model::region_number(region->id),
                                                   model::report_name(region->kind), model::source_range(profile, *region))
                                     : std::string("?");
    switch (node.kind) {
    case NodeKind::Root: return fmt::format("[{}]", profile.application);
    case NodeKind::Region:
        return region && region->name ? fmt::format("{} '{}'", region_text, *region->name) : region_text;
    case NodeKind::ImplicitBarrier: return "implicit barrier of " + region_text;
    case NodeKind::TaskRoot: return "task tree of " + region_text;
    case NodeKind::TaskStub: return "tasks run: " + region_text;
    }
    return region_text;
}

// Incoming edges of one node, grouped by the predecessor node.
std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint64_t>>> edges_into(const Node& node) {
    std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint64_t>>> edges;
    for (const auto& p : node.predecessors) edges[p.node].emplace_back(p.thread, p.count);
    return edges;
}

std::string short_label(const ProfileIndex& index, const Node& node) {
    if (node.kind == NodeKind::Root) return "root";
    const auto* region = index.region(node.region);
    std::string number = region ? model::region_number(region->id) : "?";
    switch (node.kind) {
    case NodeKind::ImplicitBarrier: return number + " implicit barrier";
    case NodeKind::TaskRoot: return number + " task tree";
    case NodeKind::TaskStub: return number + " tasks run";
    default: return region ? fmt::format("{} {}", number, model::report_name(region->kind)) : number;
    }
}

std::uint64_t total_count(const std::vector<std::pair<std::uint32_t, std::uint64_t>>& counts) {
    std::uint64_t total = 0;
    for (auto [thread, count] : counts) total += count;
    return total;
}

}  // namespace

std::string group_threads(std::vector<std::pair<std::uint32_t, std::uint64_t>> counts) {
    std::map<std::uint64_t, std::vector<std::uint32_t>> threads_by_count;
    for (auto [thread, count] : counts) threads_by_count[count].push_back(thread);
    std::vector<std::pair<std::vector<std::uint32_t>, std::uint64_t>> groups;
    for (auto& [count, threads] : threads_by_count) {
        std::sort(threads.begin(), threads.end());
        threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
        groups.emplace_back(std::move(threads), count);
    }
    std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string out;
    for (const auto& [threads, count] : groups) {
        if (!out.empty()) out += ", ";
        out += fmt::format("{}|{}", thread_ranges(threads), count);
    }
    return out;
}

void append_control_flow_report(std::string& out, const model::Profile& profile) {
    auto it = std::back_inserter(out);
    ProfileIndex index(profile);
    model::append_section_header(out, "ompP Control Flow");
    fmt::format_to(it, "Per layer of the call graph (a parent and its children): how often each node was\n"
                       "entered right after its parent or a sibling; 'T|N': thread(s) T, N times each.\n\n");
    std::size_t left_out = 0;
    for (const auto& parent : profile.nodes) {
        auto children = index.children(parent);
        if (index.depth(parent) >= model::kTextReportDepth) {
            left_out += children.size();
            continue;
        }
        bool has_flow = std::any_of(children.begin(), children.end(),
                                    [&](auto id) { return !index.node(id)->predecessors.empty(); });
        if (!has_flow) continue;
        fmt::format_to(it, "{}\n", node_label(profile, index, parent));
        for (auto child_id : children) {
            const Node& child = *index.node(child_id);
            if (child.predecessors.empty()) continue;
            fmt::format_to(it, "  -> {}\n", node_label(profile, index, child));
            for (const auto& [from_id, counts] : edges_into(child)) {
                const Node* from = index.node(from_id);
                std::string from_text = !from             ? fmt::format("node {}", from_id)
                                        : from == &parent ? "(parent) " + short_label(index, *from)
                                                          : short_label(index, *from);
                fmt::format_to(it, "       after {:<32} {}  [total {}]\n", from_text, group_threads(counts),
                               total_count(counts));
            }
        }
        out += '\n';
    }
    if (left_out > 0) {
        fmt::format_to(it, "{} node{} deeper than {} levels not shown here (text report depth limit); the JSON "
                           "profile has their control flow.\n\n",
                       left_out, left_out == 1 ? "" : "s", model::kTextReportDepth);
    }
}

}  // namespace ompp::analyses
