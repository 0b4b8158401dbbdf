#include "graph.hpp"
#include "repeats.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <numeric>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace ompp::trace_tool {

const char* to_string(EdgeKind kind) {
    static constexpr const char* names[] = {"work", "fork", "join", "barrier", "task start", "task wait", "lock"};
    return names[static_cast<int>(kind)];
}

namespace {

bool is_barrier(const Region& region) {
    return region.role == OTF2_REGION_ROLE_BARRIER || region.role == OTF2_REGION_ROLE_IMPLICIT_BARRIER;
}
bool is_task_sync(const Region& region) { return is_barrier(region) || region.role == OTF2_REGION_ROLE_TASK_WAIT; }

}  // namespace

ExecutionGraph::NodeId ExecutionGraph::id(std::uint64_t location, std::size_t index) const {
    const auto position = std::lower_bound(locations_.begin(), locations_.end(), location) - locations_.begin();
    return first_[static_cast<std::size_t>(position)] + static_cast<NodeId>(index);
}

ExecutionGraph::Node ExecutionGraph::node(NodeId id) const {
    const auto position = std::upper_bound(first_.begin(), first_.end(), id) - first_.begin() - 1;
    return {locations_[static_cast<std::size_t>(position)], id - first_[static_cast<std::size_t>(position)]};
}

const Event& ExecutionGraph::event(NodeId id) const {
    const Node n = node(id);
    return trace_.threads.at(n.location)[n.index];
}

std::string ExecutionGraph::label(std::uint32_t region) const {
    if (region == kNoRegion || region >= trace_.regions.size()) return "(outside any region)";
    const Region& r = trace_.regions[region];
    // OpenMP regions are named "... @file:line" already; user regions by name only.
    return r.name.find(" @") != std::string::npos || r.file.empty() ? r.name : r.name + " @" + r.where();
}

ExecutionGraph::ExecutionGraph(const Trace& trace) : trace_(trace) {
    for (const auto& [location, events] : trace.threads) {
        locations_.push_back(location);
        first_.push_back(static_cast<NodeId>(node_count_));
        node_count_ += events.size();
    }
    if (node_count_ >= std::numeric_limits<NodeId>::max()) throw std::runtime_error("trace too large for the graph");
    innermost_.resize(node_count_, kNoRegion);

    // One pass per thread, in order, collecting what the cross edges join.
    std::map<std::uint64_t, std::vector<std::pair<std::uint64_t, NodeId>>> forks;  // location -> (time, node)
    for (const auto& [location, events] : trace.threads) {
        for (std::size_t i = 0; i < events.size(); ++i) {
            if (events[i].kind == Kind::Fork) forks[location].emplace_back(events[i].time, id(location, i));
        }
    }
    std::unordered_map<NodeId, NodeId> join_of_fork;
    for (const auto& [location, events] : trace.threads) {
        std::vector<NodeId> open;
        for (std::size_t i = 0; i < events.size(); ++i) {
            if (events[i].kind == Kind::Fork) open.push_back(id(location, i));
            if (events[i].kind == Kind::Join && !open.empty()) {
                join_of_fork[open.back()] = id(location, i);
                open.pop_back();
            }
        }
    }
    const auto fork_before = [&](std::uint64_t master, std::uint64_t time) -> std::optional<NodeId> {
        const auto it = forks.find(master);
        if (it == forks.end()) return std::nullopt;
        const auto after = std::upper_bound(it->second.begin(), it->second.end(), std::make_pair(time, ~NodeId{0}));
        if (after == it->second.begin()) return std::nullopt;
        return std::prev(after)->second;
    };

    std::map<std::pair<NodeId, std::uint32_t>, std::pair<std::vector<NodeId>, std::vector<NodeId>>> barriers;
    std::map<TaskKey, NodeId> task_created, task_started;
    std::map<TaskKey, std::pair<NodeId, TaskKey>> task_completed;  // task -> (complete node, parent task)
    std::map<TaskKey, TaskKey> parent_of;
    struct SyncVisit {
        std::uint64_t enter;
        std::uint64_t leave;
        NodeId leave_node;
    };
    std::map<TaskKey, std::vector<SyncVisit>> syncs;  // per task, in time order
    std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, NodeId>>> lock_events;  // lock -> (time, node)
    std::vector<bool> is_acquire(node_count_, false);

    for (const auto& [location, events] : trace.threads) {
        ThreadWalk walk(location);
        struct OpenTeam {
            NodeId fork;
            std::uint32_t barriers = 0;
        };
        std::vector<OpenTeam> teams;
        for (std::size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            const NodeId n = id(location, i);
            const TaskKey task_before = walk.current();
            walk.step(e, trace);
            switch (e.kind) {
            case Kind::TeamBegin: {
                const auto master = trace.team_master.find(e.a);
                const auto fork =
                    master != trace.team_master.end() ? fork_before(master->second, e.time) : std::nullopt;
                teams.push_back({fork.value_or(n)});
                if (fork && master->second != location) cross_.push_back({n, *fork, EdgeKind::Fork});
                break;
            }
            case Kind::TeamEnd:
                if (!teams.empty()) {
                    const auto join = join_of_fork.find(teams.back().fork);
                    if (join != join_of_fork.end() && node(join->second).location != location) {
                        cross_.push_back({join->second, n, EdgeKind::Join});
                    }
                    teams.pop_back();
                }
                break;
            case Kind::Enter:
                if (!teams.empty() && is_barrier(trace.regions.at(e.region))) {
                    barriers[{teams.back().fork, teams.back().barriers}].first.push_back(n);
                }
                break;
            case Kind::Leave: {
                const Region& region = trace.regions.at(e.region);
                // A thread that ran tasks at a barrier or taskwait switches back to its own task as it
                // leaves, at the same time: what held the departure up held up that switch.
                const NodeId departure =
                    i > 0 && events[i - 1].kind == Kind::TaskSwitch && events[i - 1].time == e.time ? n - 1 : n;
                if (!teams.empty() && is_barrier(region)) {
                    barriers[{teams.back().fork, teams.back().barriers++}].second.push_back(departure);
                }
                if (is_task_sync(region)) syncs[walk.current()].push_back({walk.left().since, e.time, departure});
                break;
            }
            case Kind::TaskCreate:
                task_created[e.task()] = n;
                parent_of[e.task()] = task_before;
                break;
            case Kind::TaskSwitch:
                if (e.b != 0) task_started.try_emplace(e.task(), n);
                break;
            case Kind::TaskComplete: task_completed[e.task()] = {n, {}}; break;
            case Kind::AcquireLock:
                lock_events[e.a].emplace_back(e.time, n);
                is_acquire[n] = true;
                break;
            case Kind::ReleaseLock: lock_events[e.a].emplace_back(e.time, n); break;
            default: break;
            }
            innermost_[n] = walk.stack().empty() ? kNoRegion : walk.stack().back().region;
        }
    }
    for (const auto& [key, visits] : barriers) {
        for (const NodeId leave : visits.second) {
            for (const NodeId enter : visits.first) {
                if (node(enter).location != node(leave).location) cross_.push_back({leave, enter, EdgeKind::Barrier});
            }
        }
    }
    for (const auto& [task, created] : task_created) {
        if (const auto started = task_started.find(task); started != task_started.end()) {
            cross_.push_back({started->second, created, EdgeKind::Task});
        }
        const auto completed = task_completed.find(task);
        const auto parent_syncs = syncs.find(parent_of[task]);
        if (completed == task_completed.end() || parent_syncs == syncs.end()) continue;
        const std::uint64_t created_at = event(created).time;
        const std::uint64_t done_at = event(completed->second.first).time;
        for (const SyncVisit& sync : parent_syncs->second) {
            if (sync.enter >= created_at && sync.leave >= done_at) {
                cross_.push_back({sync.leave_node, completed->second.first, EdgeKind::TaskWait});
                break;
            }
        }
    }
    for (auto& [lock, visits] : lock_events) {
        std::stable_sort(visits.begin(), visits.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        std::optional<NodeId> last_release;
        for (const auto& [time, n] : visits) {
            if (!is_acquire[n]) {
                last_release = n;
            } else if (last_release && node(*last_release).location != node(n).location) {
                cross_.push_back({n, *last_release, EdgeKind::Lock});
            }
        }
    }
    std::sort(cross_.begin(), cross_.end(), [](const CrossEdge& a, const CrossEdge& b) { return a.to < b.to; });
}

std::vector<ExecutionGraph::PathEdge> ExecutionGraph::critical_edges() const {
    std::vector<PathEdge> edges;
    if (node_count_ == 0) return edges;
    NodeId at = 0;
    for (NodeId n = 0; n < node_count_; ++n) {
        if (event(n).time >= event(at).time) at = n;
    }
    while (true) {
        std::optional<NodeId> chosen;
        EdgeKind kind = EdgeKind::Program;
        if (node(at).index > 0) chosen = at - 1;
        const auto [first, last] = std::equal_range(
            cross_.begin(), cross_.end(), CrossEdge{at, 0, EdgeKind::Program},
            [](const CrossEdge& a, const CrossEdge& b) { return a.to < b.to; });
        for (auto edge = first; edge != last; ++edge) {
            if (!chosen || event(edge->from).time > event(*chosen).time) {
                chosen = edge->from;
                kind = edge->kind;
            }
        }
        if (!chosen) break;
        edges.push_back({*chosen, at, kind});
        at = *chosen;
    }
    std::reverse(edges.begin(), edges.end());
    return edges;
}

std::vector<PathStep> ExecutionGraph::critical_path() const {
    std::vector<PathStep> path;
    for (const PathEdge& edge : critical_edges()) {
        const Node to = node(edge.to);
        const Event& reached = event(edge.to);
        // No time between two events of a thread (a task switch and its body's enter): nothing to show.
        if (edge.kind == EdgeKind::Program && !path.empty() && reached.time == event(edge.from).time) continue;
        // Work: the region it was done in; a dependency: the region of the event it let go on.
        const bool at_region_event = reached.kind == Kind::Enter || reached.kind == Kind::Leave;
        const std::uint32_t region = edge.kind == EdgeKind::Program ? innermost_[edge.from]
                                     : at_region_event              ? reached.region
                                                                    : innermost_[edge.to];
        if (!path.empty() && edge.kind == EdgeKind::Program && path.back().kind == EdgeKind::Program &&
            path.back().thread == to.location && path.back().region == region) {
            path.back().end = event(edge.to).time;
            path.back().event = event(edge.to).kind;
        } else {
            path.push_back({edge.kind, to.location, node(edge.from).location, event(edge.from).time,
                            event(edge.to).time, region, event(edge.to).kind});
        }
    }
    return path;
}

std::vector<PathShare> ExecutionGraph::shares(const std::vector<PathStep>& path) const {
    std::map<std::pair<std::uint32_t, std::uint64_t>, double> by_region;
    for (const PathStep& step : path) {
        if (step.kind == EdgeKind::Program) by_region[{step.region, step.thread}] += trace_.seconds(step.end - step.begin);
    }
    std::vector<PathShare> ranked;
    for (const auto& [key, seconds] : by_region) ranked.push_back({key.first, key.second, seconds});
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const PathShare& a, const PathShare& b) { return a.seconds > b.seconds; });
    return ranked;
}

namespace {

// A line of the critical path's text: a step, or the same step of every
// copy of a repeated block, their lengths summed.
struct PathLine {
    PathStep step;
    double seconds;
};

// What one line at the top of a listing stands for: a line, or a repeated
// block of them.
struct Fold {
    std::size_t at;  // its first line
    Repeat repeat;
    double seconds;  // of all its lines
};

std::vector<Fold> fold_repeats(std::span<const PathLine> lines) {
    const auto same = [](const PathLine& a, const PathLine& b) {
        return a.step.kind == b.step.kind && a.step.thread == b.step.thread &&
               a.step.from_thread == b.step.from_thread && a.step.region == b.step.region &&
               a.step.event == b.step.event;
    };
    std::vector<Fold> folds;
    for (std::size_t at = 0; at < lines.size();) {
        const Repeat repeat = repeat_at_front(lines.subspan(at), same);
        double seconds = 0;
        for (std::size_t i = at; i < at + repeat.items(); ++i) seconds += lines[i].seconds;
        folds.push_back({at, repeat, seconds});
        at += repeat.items();
    }
    return folds;
}

// The block of a repeat once, each line the sum of its copies.
std::vector<PathLine> block_of(std::span<const PathLine> lines, const Fold& fold) {
    std::vector<PathLine> block(lines.begin() + static_cast<std::ptrdiff_t>(fold.at),
                                lines.begin() + static_cast<std::ptrdiff_t>(fold.at + fold.repeat.period));
    for (std::size_t copy = 1; copy < fold.repeat.count; ++copy) {
        for (std::size_t i = 0; i < block.size(); ++i) block[i].seconds += lines[fold.at + copy * block.size() + i].seconds;
    }
    return block;
}

// The listing's columns: begin (seconds from the path's start), length,
// thread, then the step or what a line stands for, indented by depth.
class PathListing {
public:
    PathListing(std::ostream& out, std::uint64_t origin, std::function<double(std::uint64_t)> seconds,
                std::function<std::string(const PathStep&)> where)
        : out_(out), origin_(origin), seconds_(std::move(seconds)), where_(std::move(where)) {}

    void write_fold(std::span<const PathLine> lines, const Fold& fold, int depth) const {
        const PathStep& first = lines[fold.at].step;
        if (fold.repeat.count == 1) {
            write_line(first, fold.seconds, fmt::to_string(first.thread),
                       fmt::format("{:<10} {}", to_string(first.kind), where_(first)), depth);
            return;
        }
        write_line(first, fold.seconds, "",
                   fmt::format("{} times the {} below, lengths summed:", fold.repeat.count,
                               fold.repeat.period == 1 ? std::string("step") : fmt::format("{} steps", fold.repeat.period)),
                   depth);
        const std::vector<PathLine> block = block_of(lines, fold);
        for (const Fold& inner : fold_repeats(block)) write_fold(block, inner, depth + 1);
    }
    void write_omitted(const PathStep& first, double seconds, std::size_t steps) const {
        write_line(first, seconds, "", fmt::format("... {} shorter steps (--lines 0 prints every step)", steps), 0);
    }

private:
    void write_line(const PathStep& first, double seconds, const std::string& thread, const std::string& what,
                    int depth) const {
        out_ << fmt::format("  {:>12.6f} {:>12.6f}  {:>7}  {:{}}{}\n", seconds_(first.begin - origin_), seconds, thread,
                            "", 2 * depth, what);
    }

    std::ostream& out_;
    std::uint64_t origin_;
    std::function<double(std::uint64_t)> seconds_;
    std::function<std::string(const PathStep&)> where_;
};

}  // namespace

void ExecutionGraph::write_path_text(const std::vector<PathStep>& path, std::size_t max_lines, std::ostream& out) const {
    if (path.empty()) {
        out << "critical path: empty trace\n";
        return;
    }
    const double total = trace_.seconds(path.back().end - path.front().begin);
    std::vector<PathLine> lines;
    lines.reserve(path.size());
    for (const PathStep& step : path) lines.push_back({step, trace_.seconds(step.end - step.begin)});
    const std::vector<Fold> folds = fold_repeats(lines);
    // Of more folds than max_lines, the longest are printed; each run of the others as one line.
    const bool shortened = max_lines > 0 && folds.size() > max_lines;
    std::vector<bool> printed(folds.size(), true);
    if (shortened) {
        std::vector<std::size_t> by_length(folds.size());
        std::iota(by_length.begin(), by_length.end(), std::size_t{0});
        std::stable_sort(by_length.begin(), by_length.end(),
                         [&](std::size_t a, std::size_t b) { return folds[a].seconds > folds[b].seconds; });
        for (std::size_t i = max_lines; i < by_length.size(); ++i) printed[by_length[i]] = false;
    }
    out << fmt::format("critical path: {:.6f} s from the first event to the last, {} steps "
                       "({} events, {} edges); steps that repeat are printed once with a count",
                       total, path.size(), node_count_, edges());
    if (shortened) {
        out << fmt::format("; of its {} entries (a step, or a repeated block) the {} longest", folds.size(), max_lines);
    }
    out << "\n";
    out << fmt::format("  {:>12} {:>12}  {:>7}  {:<10} {}\n", "begin [s]", "length [s]", "thread", "step", "where");
    const PathListing listing(
        out, path.front().begin, [this](std::uint64_t ticks) { return trace_.seconds(ticks); },
        [this](const PathStep& step) {
            if (step.kind == EdgeKind::Program) return label(step.region);
            return fmt::format("thread {} -> thread {}: {} {}", step.from_thread, step.thread, to_string(step.event),
                               label(step.region));
        });
    for (std::size_t i = 0; i < folds.size();) {
        if (printed[i]) {
            listing.write_fold(lines, folds[i++], 0);
            continue;
        }
        const Fold& first = folds[i];
        double seconds = 0;
        std::size_t steps = 0;
        for (; i < folds.size() && !printed[i]; ++i) {
            seconds += folds[i].seconds;
            steps += folds[i].repeat.items();
        }
        listing.write_omitted(lines[first.at].step, seconds, steps);
    }
    const std::vector<PathShare> ranked = shares(path);
    out << "where the critical path spends its time:\n";
    for (std::size_t i = 0; i < ranked.size() && i < 10; ++i) {
        out << fmt::format("  {:>12.6f} s {:>5.1f}%  thread {}  {}\n", ranked[i].seconds,
                           total > 0 ? 100 * ranked[i].seconds / total : 0.0, ranked[i].thread, label(ranked[i].region));
    }
}

nlohmann::ordered_json ExecutionGraph::region_json(std::uint32_t region) const {
    if (region == kNoRegion || region >= trace_.regions.size()) {
        return {{"region", label(region)}, {"kind", ""}, {"file", ""}, {"line", 0}};
    }
    const Region& r = trace_.regions[region];
    // OpenMP regions are named "!$omp <construct> @file:line"; the rest are user regions.
    constexpr std::string_view openmp = "!$omp ";
    const bool is_openmp = r.name.starts_with(openmp);
    const std::string kind = is_openmp ? r.name.substr(openmp.size(), r.name.find(" @") - openmp.size()) : "user";
    return {{"region", label(region)}, {"kind", kind}, {"file", r.file}, {"line", r.line}};
}

void ExecutionGraph::write_json(const std::vector<PathStep>& path, std::ostream& out) const {
    const double total = path.empty() ? 0.0 : trace_.seconds(path.back().end - path.front().begin);
    nlohmann::ordered_json steps = nlohmann::json::array();
    for (const PathStep& step : path) {
        const double seconds = trace_.seconds(step.end - step.begin);
        nlohmann::ordered_json json = {
            {"step", to_string(step.kind)},
            {"work", step.kind == EdgeKind::Program},
            {"event", to_string(step.event)},
            {"thread", step.thread},
            {"from_thread", step.from_thread},
        };
        json.update(region_json(step.region));
        json.update(nlohmann::ordered_json{{"begin_s", trace_.seconds(step.begin)},
                                           {"end_s", trace_.seconds(step.end)},
                                           {"duration_s", seconds},
                                           {"share", total > 0 ? seconds / total : 0.0}});
        steps.push_back(std::move(json));
    }
    nlohmann::ordered_json regions = nlohmann::json::array();
    for (const PathShare& share : shares(path)) {
        nlohmann::ordered_json json = region_json(share.region);
        json.update(nlohmann::ordered_json{{"thread", share.thread},
                                           {"seconds", share.seconds},
                                           {"share", total > 0 ? share.seconds / total : 0.0}});
        regions.push_back(std::move(json));
    }
    std::ostringstream dot;
    write_dot(dot);
    nlohmann::ordered_json doc = {
        {"run_time_s", trace_.seconds(trace_.length)},
        {"path_s", total},
        {"events", node_count_},
        {"edges", edges()},
        {"threads", trace_.threads.size()},
        {"steps", std::move(steps)},
        {"regions", std::move(regions)},
        {"dot", dot.str()},
    };
    // Names come from the program's sources: a byte that is not UTF-8 becomes U+FFFD.
    out << doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void ExecutionGraph::write_dot(std::ostream& out) const {
    // Node classes: (event kind, region of the event or, for task and
    // thread events, the innermost region around it).
    const auto class_of = [&](NodeId n) {
        const Event& e = event(n);
        const std::uint32_t region = e.kind == Kind::Enter || e.kind == Kind::Leave ? e.region : innermost_[n];
        return std::make_pair(e.kind, region);
    };
    std::map<std::pair<Kind, std::uint32_t>, std::uint64_t> classes;
    struct EdgeStats {
        std::uint64_t count = 0;
        std::uint64_t ticks = 0;
        bool critical = false;
    };
    std::map<std::tuple<std::pair<Kind, std::uint32_t>, std::pair<Kind, std::uint32_t>, EdgeKind>, EdgeStats> edges;
    for (NodeId n = 0; n < node_count_; ++n) {
        ++classes[class_of(n)];
        if (node(n).index > 0) {
            auto& stats = edges[{class_of(n - 1), class_of(n), EdgeKind::Program}];
            ++stats.count;
            stats.ticks += event(n).time - event(n - 1).time;
        }
    }
    for (const CrossEdge& edge : cross_) {
        auto& stats = edges[{class_of(edge.from), class_of(edge.to), edge.kind}];
        ++stats.count;
        stats.ticks += event(edge.to).time - std::min(event(edge.to).time, event(edge.from).time);
    }
    for (const PathEdge& edge : critical_edges()) {
        edges[{class_of(edge.from), class_of(edge.to), edge.kind}].critical = true;
    }

    std::map<std::pair<Kind, std::uint32_t>, std::size_t> index;
    out << "digraph execution {\n  rankdir=TB;\n  node [shape=box, fontsize=10];\n";
    for (const auto& [key, count] : classes) {
        const std::size_t i = index.size();
        index[key] = i;
        out << fmt::format("  n{} [label=\"{}\\n{}\\nx{}\"];\n", i, to_string(key.first), label(key.second), count);
    }
    for (const auto& [key, stats] : edges) {
        const auto& [from, to, kind] = key;
        out << fmt::format("  n{} -> n{} [label=\"{} x{}\\n{:.3g} s\"{}{}];\n", index[from], index[to], to_string(kind),
                           stats.count, trace_.seconds(stats.ticks),
                           kind == EdgeKind::Program ? "" : ", style=dashed",
                           stats.critical ? ", color=red, penwidth=2" : "");
    }
    out << "}\n";
}

}  // namespace ompp::trace_tool
