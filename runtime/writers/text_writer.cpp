#include "writers/text_writer.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "model/report_text.hpp"
#include "model/names.hpp"

namespace ompp::writers {
namespace {

using model::NodeKind;
using model::RegionKind;

void section(std::string& out, std::string_view title) { model::append_section_header(out, title); }

// Per-thread values of one construct (ompP's columns), summed over the
// call-graph nodes they come from.
struct Row {
    double exec_t = 0, exec_t_exclusive = 0, body_t = 0, exit_bar_t = 0, startup_t = 0, shutdown_t = 0;
    double task_t = 0, enter_t = 0, exit_t = 0, mgmt_t = 0;
    std::uint64_t exec_c = 0, body_c = 0, bytes = 0;
    std::array<double, model::kMaxCounters> counters{};

    void add(const Row& o) {
        exec_t += o.exec_t;
        exec_t_exclusive += o.exec_t_exclusive;
        body_t += o.body_t;
        exit_bar_t += o.exit_bar_t;
        startup_t += o.startup_t;
        shutdown_t += o.shutdown_t;
        task_t += o.task_t;
        enter_t += o.enter_t;
        exit_t += o.exit_t;
        mgmt_t += o.mgmt_t;
        exec_c += o.exec_c;
        body_c += o.body_c;
        bytes += o.bytes;
        for (std::size_t i = 0; i < counters.size(); ++i) counters[i] += o.counters[i];
    }
};

struct Column {
    std::string_view name;
    std::function<std::string(const Row&)> value;
};

std::string seconds(double value) { return fmt::format("{:>10.4f}", value); }
std::string count(std::uint64_t value) { return fmt::format("{:>10}", value); }


// What the report says of a construct ompp counts without timing.
constexpr std::string_view kCountedOnly =
    "counted, not timed: the construct takes less time than a clock read; ompp-instrument --time-trivial "
    "(or --opari2-compatible) times it";

// ompP's flat-profile columns per construct (peers-reference §1.4); a
// construct counted without timing has only its count.
std::vector<Column> columns_for(const model::Region* region, NodeKind node_kind) {
    const RegionKind kind = region != nullptr ? region->kind : RegionKind::UserRegion;
    const Column exec_t{"execT", [](const Row& r) { return seconds(r.exec_t); }};
    const Column exec_c{"execC", [](const Row& r) { return count(r.exec_c); }};
    const Column body_t{"bodyT", [](const Row& r) { return seconds(r.body_t); }};
    const Column exit_bar{"exitBarT", [](const Row& r) { return seconds(r.exit_bar_t); }};
    const Column startup{"startupT", [](const Row& r) { return seconds(r.startup_t); }};
    const Column shutdown{"shutdwnT", [](const Row& r) { return seconds(r.shutdown_t); }};
    const Column task_t{"taskT", [](const Row& r) { return seconds(r.task_t); }};
    const Column enter_t{"enterT", [](const Row& r) { return seconds(r.enter_t); }};
    const Column exit_t{"exitT", [](const Row& r) { return seconds(r.exit_t); }};
    const Column sect_t{"sectT", [](const Row& r) { return seconds(r.body_t); }};
    const Column sect_c{"sectC", [](const Row& r) { return count(r.body_c); }};
    const Column single_t{"singleT", [](const Row& r) { return seconds(r.body_t); }};
    const Column single_c{"singleC", [](const Row& r) { return count(r.body_c); }};
    const Column mgmt_t{"mgmtT", [](const Row& r) { return seconds(r.mgmt_t); }};
    const Column bytes{"bytes", [](const Row& r) { return count(r.bytes); }};
    if (node_kind != NodeKind::Region) return {exec_t, exec_c};
    if (region != nullptr && !region->timed) return {exec_c};
    switch (kind) {
    case RegionKind::Parallel:
    case RegionKind::ParallelLoop:
    case RegionKind::ParallelMaster: return {exec_t, exec_c, body_t, exit_bar, startup, shutdown, task_t};
    case RegionKind::ParallelSections: return {exec_t, exec_c, sect_t, sect_c, exit_bar, startup, shutdown, task_t};
    case RegionKind::Loop:
    case RegionKind::Workshare:
    case RegionKind::Scope: return {exec_t, exec_c, body_t, exit_bar, task_t};
    case RegionKind::Sections: return {exec_t, exec_c, sect_t, sect_c, exit_bar, mgmt_t, task_t};
    case RegionKind::Single: return {exec_t, exec_c, single_t, single_c, exit_bar, task_t};
    case RegionKind::Critical:
    case RegionKind::Ordered:
    case RegionKind::Lock: return {exec_t, exec_c, body_t, enter_t, exit_t};
    case RegionKind::Barrier:
    case RegionKind::Taskwait:
    case RegionKind::Taskgroup:
    case RegionKind::Taskloop:
    case RegionKind::Taskyield: return {exec_t, exec_c, task_t};
    case RegionKind::Mpi: return {exec_t, exec_c, bytes};
    default: return {exec_t, exec_c};
    }
}

class TextReport {
public:
    TextReport(const model::Profile& profile, const model::AnalysesText& analyses)
        : profile_(profile), analyses_(analyses) {
        for (const auto& region : profile.regions) regions_[region.id] = &region;
        children_.resize(profile.nodes.size());
        depth_.assign(profile.nodes.size(), 0);
        subtree_size_.assign(profile.nodes.size(), 1);
        for (const auto& node : profile.nodes) {
            if (node.parent && *node.parent < children_.size()) {
                children_[*node.parent].push_back(node.id);
                depth_[node.id] = depth_[*node.parent] + 1;  // parents come before children
            }
        }
        for (std::size_t id = profile.nodes.size(); id-- > 0;) {
            for (std::uint32_t child : children_[id]) subtree_size_[id] += subtree_size_[child];
        }
    }

    std::string render() {
        out_ += analyses_.summary;
        general_information();
        region_overview();
        callgraph();
        flat_profiles();
        callgraph_profiles();
        task_statistics();
        warnings();
        out_ += analyses_.sections;
        return std::move(out_);
    }

private:
    template <typename... Args>
    void line(fmt::format_string<Args...> format, Args&&... args) {
        fmt::format_to(std::back_inserter(out_), format, std::forward<Args>(args)...);
        out_ += '\n';
    }

    const model::Region* region(std::optional<std::uint32_t> id) const {
        if (!id) return nullptr;
        auto it = regions_.find(*id);
        return it == regions_.end() ? nullptr : it->second;
    }

    // The same "file (first-last)" the analyses' sections print, so a region
    // reads alike in every section of the report.
    std::string location(const model::Region& r) const {
        std::string text = model::source_range(profile_, r);
        if (r.name) text = fmt::format("{} '{}'", text, *r.name);
        return text;
    }

    std::string node_label(const model::Node& node) const {
        const model::Region* r = region(node.region);
        if (r == nullptr) return fmt::format("[{}: {} threads]", profile_.application, profile_.threads);
        std::string label = fmt::format("R{:05} {}", r->id, location(*r));
        if (node.recursion_depth > 1) label += fmt::format(" (recursion: {} levels folded)", node.recursion_depth);
        switch (node.kind) {
        case NodeKind::ImplicitBarrier: return label + " (implicit barrier)";
        case NodeKind::TaskRoot: return label + " (task execution tree)";
        case NodeKind::TaskStub: return label + " (tasks run here)";
        default: return label;
        }
    }

    std::string node_type(const model::Node& node) const {
        switch (node.kind) {
        case NodeKind::Root: return "";
        case NodeKind::ImplicitBarrier: return "IBARRIER";
        case NodeKind::TaskRoot: return "TASKEXEC";
        case NodeKind::TaskStub: return "TASKSTUB";
        case NodeKind::Region: break;
        }
        const model::Region* r = region(node.region);
        return r != nullptr ? std::string(model::to_string(r->kind)) : "?";
    }

    Row row_of(const model::Node& node, const model::ThreadMetrics& m) const {
        Row row;
        row.exec_t = m.inclusive_s;
        row.exec_t_exclusive = m.exclusive_s;
        row.exec_c = m.visits;
        row.body_t = m.body_s;
        row.body_c = m.body_count;
        row.startup_t = m.startup_s;
        row.shutdown_t = m.shutdown_s;
        row.enter_t = m.enter_s;
        row.exit_t = m.exit_s;
        row.task_t = m.task_s;
        row.bytes = m.bytes;
        row.counters = m.counters_inclusive;
        double barrier_inclusive = 0;
        for (std::uint32_t child : children_[node.id]) {
            const model::Node& c = profile_.nodes[child];
            if (c.kind != NodeKind::ImplicitBarrier) continue;
            for (const auto& cm : c.threads) {
                if (cm.thread != m.thread) continue;
                barrier_inclusive += cm.inclusive_s;
                row.exit_bar_t += cm.exclusive_s;  // the wait, without tasks run there
            }
        }
        const model::Region* r = region(node.region);
        if (r != nullptr && node.kind == NodeKind::Region) {
            // Worksharing bodies are not bracketed by events: all but the barrier.
            if (r->kind == RegionKind::Loop || r->kind == RegionKind::Workshare || r->kind == RegionKind::Scope) {
                row.body_t = std::max(0.0, m.inclusive_s - barrier_inclusive);
            }
            if (r->kind == RegionKind::Sections) row.mgmt_t = std::max(0.0, m.inclusive_s - m.body_s - barrier_inclusive);
        }
        return row;
    }

    void table(const std::vector<Column>& columns, const std::map<std::uint32_t, Row>& rows, bool with_exclusive) {
        std::string header = " TID";
        for (const auto& column : columns) {
            if (with_exclusive && column.name == "execT") {
                header += fmt::format(" {:>10} {:>10}", "execT/I", "execT/E");
            } else {
                header += fmt::format(" {:>10}", column.name);
            }
        }
        for (std::size_t i = 0; i < profile_.counters.size(); ++i) {
            header += fmt::format(" {:>18}", profile_.counters[i].name);
        }
        line("{}", header);
        Row sum;
        const auto print = [&](std::string_view tid, const Row& row) {
            std::string text = fmt::format("{:>4}", tid);
            for (const auto& column : columns) {
                text += ' ' + column.value(row);
                if (with_exclusive && column.name == "execT") text += ' ' + seconds(row.exec_t_exclusive);
            }
            for (std::size_t i = 0; i < profile_.counters.size(); ++i) {
                text += fmt::format(" {:>18.0f}", row.counters[i]);
            }
            line("{}", text);
        };
        for (const auto& [thread, row] : rows) {
            print(fmt::format("{}", thread), row);
            sum.add(row);
        }
        print("SUM", sum);
        line("");
    }

    void general_information() {
        section(out_, "ompP General Information");
        const auto field = [&](std::string_view key, const std::string& value) {
            line("{:<16}: {}", key, value);
        };
        field("Start Date", profile_.start_date);
        field("End Date", profile_.end_date);
        field("Duration", fmt::format("{:.2f} sec", profile_.wall_time_s));
        field("Application Name", profile_.application);
        field("Type of Report", profile_.final_report ? "final" : "incremental");
        field("User Time", fmt::format("{:.2f} sec", profile_.user_time_s));
        field("System Time", fmt::format("{:.2f} sec", profile_.system_time_s));
        field("Max Threads", fmt::format("{}", profile_.threads));
        if (const auto& mpi = profile_.mpi) {
            field("MPI Rank", fmt::format("{} of {} (host {})", mpi->rank, mpi->size, mpi->host));
        }
        field("ompP Version", "ompp " OMPP_VERSION);
        field("Max Counters", fmt::format("{}", model::kMaxCounters));
        field("Used Counters", fmt::format("{}", profile_.counters.size()));
        for (std::size_t i = 0; i < profile_.counters.size(); ++i) {
            field(fmt::format("OMPP_CTR{}", i + 1),
                  fmt::format("{} ({})", profile_.counters[i].name, profile_.counters[i].source));
        }
        for (const auto& error : profile_.counter_errors) field("Counter Error", error);
        field("Warnings", fmt::format("{}", profile_.warnings.size()));
        if (const auto& broken = profile_.invariant_violations; !broken.empty()) {
            field("Profile check", fmt::format("WARNING: the figures do not add up ({} invariant violation{}, "
                                               "please report to ompp; first: {})",
                                               broken.size(), broken.size() == 1 ? "" : "s", broken.front()));
        }
        line("");
    }

    void region_overview() {
        section(out_, "ompP Region Overview");
        std::map<std::string_view, std::vector<const model::Region*>> by_kind;
        for (const auto& r : profile_.regions) by_kind[model::report_name(r.kind)].push_back(&r);
        for (const auto& [kind, list] : by_kind) {
            line("{}: {} region{}:", kind, list.size(), list.size() == 1 ? "" : "s");
            for (const model::Region* r : list) {
                line(" * R{:05} {}{}", r->id, location(*r), r->timed ? "" : " (counted, not timed)");
            }
            line("");
        }
    }

    double node_sum(const model::Node& node, double model::ThreadMetrics::*field) const {
        double total = 0;
        for (const auto& m : node.threads) total += m.*field;
        return total;
    }

    // Score-P/Cube semantics, in thread-seconds: a node's exclusive time is
    // summed over all threads that visited it; its inclusive time is the sum
    // of the exclusive times of its whole subtree, all threads, so a parent
    // (a user region around a parallel region) is never smaller than its
    // children and the root is the total.  Per-thread inclusive times are in
    // the region profiles and the JSON.
    void callgraph() {
        section(out_, "ompP Callgraph");
        line("Thread-seconds. Exclusive: summed over all threads; inclusive: exclusive summed over the");
        line("node's subtree (all threads); %: of the root's inclusive (total thread time measured).");
        line("");
        line("  Inclusive  (%)   Exclusive  (%)");
        std::vector<double> exclusive(profile_.nodes.size(), 0.0);
        std::vector<double> inclusive(profile_.nodes.size(), 0.0);
        for (std::size_t id = profile_.nodes.size(); id-- > 0;) {
            exclusive[id] = node_sum(profile_.nodes[id], &model::ThreadMetrics::exclusive_s);
            inclusive[id] += exclusive[id];
            for (std::uint32_t child : children_[id]) inclusive[id] += inclusive[child];
        }
        if (profile_.nodes.empty()) return line("");
        const double total = std::max(inclusive.front(), 1e-12);
        const auto percent = [&](double value) { return 100.0 * value / total; };
        line("{:7.2f} (100.0%) {:7.2f} ({:5.2f}%)          [{}: {} threads]", inclusive.front(), exclusive.front(),
             percent(exclusive.front()), profile_.application, profile_.threads);
        struct Pending {
            std::uint32_t id;
            std::string prefix;  // the tree drawn left of the node
            bool last;           // its parent's last child
        };
        std::vector<Pending> pending;
        const auto push_children = [&](std::uint32_t id, const std::string& prefix) {
            const auto& kids = children_[id];
            for (std::size_t i = kids.size(); i-- > 0;) pending.push_back({kids[i], prefix, i + 1 == kids.size()});
        };
        push_children(0, "");
        while (!pending.empty()) {
            const Pending next = std::move(pending.back());
            pending.pop_back();
            const model::Node& child = profile_.nodes[next.id];
            line("{:7.2f} ({:5.2f}%) {:7.2f} ({:5.2f}%) {:>8} {}{} {}", inclusive[child.id],
                 percent(inclusive[child.id]), exclusive[child.id], percent(exclusive[child.id]),
                 node_type(child), next.prefix, next.last ? "+-" : "|-", node_label(child));
            const std::string inner = next.prefix + (next.last ? "  " : "| ");
            if (depth_[child.id] < model::kTextReportDepth) {
                push_children(child.id, inner);
            } else if (subtree_size_[child.id] > 1) {
                line("{:>44}{}+- ... {} deeper node{} not shown (text report depth limit {}; see the JSON profile)", "",
                     inner, subtree_size_[child.id] - 1, subtree_size_[child.id] == 2 ? "" : "s",
                     model::kTextReportDepth);
            }
        }
        line("");
    }

    void flat_profiles() {
        section(out_, "ompP Flat Region Profile (inclusive data)");
        // One table per region (and, for tasks, one for their execution).
        std::map<std::pair<std::uint32_t, NodeKind>, std::map<std::uint32_t, Row>> tables;
        for (const auto& node : profile_.nodes) {
            if (!node.region || (node.kind != NodeKind::Region && node.kind != NodeKind::TaskRoot)) continue;
            auto& rows = tables[{*node.region, node.kind}];
            for (const auto& m : node.threads) rows[m.thread].add(row_of(node, m));
        }
        for (const auto& [key, rows] : tables) {
            const model::Region* r = region(key.first);
            if (r == nullptr) continue;
            line("R{:05} {} {}{}", r->id, location(*r), model::report_name(r->kind),
                 key.second == NodeKind::TaskRoot ? " EXECUTION" : "");
            if (!r->timed) line("  {}", kCountedOnly);
            table(columns_for(r, key.second), rows, false);
        }
    }

    void callgraph_profiles() {
        section(out_, "ompP Callgraph Region Profiles (incl./excl. data)");
        if (profile_.nodes.empty()) return;
        std::vector<std::uint32_t> path;  // root .. the node printed
        std::vector<std::uint32_t> pending{0};
        std::size_t left_out = 0;
        while (!pending.empty()) {
            const std::uint32_t id = pending.back();
            pending.pop_back();
            const model::Node& node = profile_.nodes[id];
            path.resize(depth_[id]);
            path.push_back(id);
            if (node.kind != NodeKind::Root) {
                for (std::size_t depth = 0; depth < path.size(); ++depth) {
                    const model::Node& step = profile_.nodes[path[depth]];
                    const char mark = depth == 0 ? '*' : (children_[step.id].empty() ? '=' : '+');
                    line("[{}{:02}] {}{}", mark, depth,
                         step.kind == NodeKind::Root ? profile_.application : node_label(step),
                         step.kind == NodeKind::Root ? "" : " " + node_type(step));
                }
                std::map<std::uint32_t, Row> rows;
                for (const auto& m : node.threads) rows[m.thread].add(row_of(node, m));
                const model::Region* r = region(node.region);
                table(columns_for(r, node.kind), rows, true);
            }
            if (depth_[id] < model::kTextReportDepth) {
                pending.insert(pending.end(), children_[id].rbegin(), children_[id].rend());
            } else {
                left_out += subtree_size_[id] - 1;
            }
        }
        if (left_out > 0) {
            line("{} node{} deeper than {} levels not shown here (text report depth limit); the JSON profile has them.",
                 left_out, left_out == 1 ? "" : "s", model::kTextReportDepth);
            line("");
        }
    }

    void task_statistics() {
        if (profile_.tasks.empty()) return;
        section(out_, "ompp Task Statistics");
        line("{:<40} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}", "Task construct", "instances", "included",
             "meanT", "minT", "maxT", "createT", "maxActive");
        for (const auto& task : profile_.tasks) {
            const model::Region* r = region(task.region);
            line("{:<40} {:>10} {:>10} {} {} {} {} {:>10}",
                 r != nullptr ? fmt::format("R{:05} {}", r->id, location(*r)) : fmt::format("R{:05}", task.region),
                 task.instances, task.included, seconds(task.mean_s), seconds(task.min_s), seconds(task.max_s),
                 seconds(task.creation_s), task.max_concurrent_per_thread);
        }
        line("");
        line("included: instances run inside their creation (undeferred, included, or run at once by the OpenMP "
             "runtime); their time is part of createT, meanT/minT/maxT are over the other instances.");
        line("maxActive: the largest number of instances of the construct begun and not yet finished on one thread.");
        line("");
    }

    void warnings() {
        if (profile_.warnings.empty()) return;
        section(out_, "ompp Warnings");
        for (const auto& warning : profile_.warnings) {
            line("{} ({} time{})", warning.text, warning.occurrences, warning.occurrences == 1 ? "" : "s");
        }
        line("");
    }

    const model::Profile& profile_;
    const model::AnalysesText& analyses_;
    std::map<std::uint32_t, const model::Region*> regions_;
    std::vector<std::vector<std::uint32_t>> children_;
    std::vector<std::size_t> depth_;         // by node id; the root is 0
    std::vector<std::size_t> subtree_size_;  // by node id; the node included
    std::string out_;
};

}  // namespace

std::string to_text(const model::Profile& profile, const model::AnalysesText& analyses) {
    return TextReport(profile, analyses).render();
}

}  // namespace ompp::writers
