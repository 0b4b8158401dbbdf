// graph.hpp - the execution graph of a trace and its critical path.
//
// Nodes are events.  Edges: each thread's events in order (the work or wait
// between them), fork -> each worker's team begin, each worker's team end
// -> join, every barrier arrival of a team -> every departure from that
// barrier, task create -> task start, task completion -> the taskwait,
// taskgroup or barrier end in the creating task that waited for it, lock
// release -> the next acquire of that lock.
//
// The critical path is found backwards from the last event: at each event
// the predecessor that happened last is the one that held it up.  Steps
// along a thread are work (or waiting) in the innermost open region; steps
// across threads are the dependencies that decided when the later thread
// could go on.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "trace.hpp"

namespace ompp::trace_tool {

enum class EdgeKind : std::uint8_t { Program, Fork, Join, Barrier, Task, TaskWait, Lock };
const char* to_string(EdgeKind kind);

struct PathStep {
    EdgeKind kind;          // Program: work on `thread`; else a dependency from `from_thread`
    std::uint64_t thread;   // where the step ends
    std::uint64_t from_thread;
    std::uint64_t begin;    // ticks
    std::uint64_t end;
    std::uint32_t region;   // Program: the innermost open region (kNoRegion: none)
    Kind event;             // the event the step ends at
};
inline constexpr std::uint32_t kNoRegion = ~std::uint32_t{0};

// Where a critical path spends its time: work per (region, thread), most first.
struct PathShare {
    std::uint32_t region;
    std::uint64_t thread;
    double seconds;
};

class ExecutionGraph {
public:
    explicit ExecutionGraph(const Trace& trace);

    std::size_t nodes() const { return node_count_; }
    std::size_t edges() const { return cross_.size() + node_count_ - trace_.threads.size(); }
    // From the first event to the last, consecutive work steps in one region
    // merged, work steps of no time (a task switch, then its body's enter) left out.
    std::vector<PathStep> critical_path() const;
    // The path as text, first to last: back-to-back copies of a block of
    // steps (a loop's iterations) printed once with their count, each line
    // the sum of its copies; of more than `max_lines` lines (0: no limit)
    // the longest, each run of the others as one line with their sum.
    void write_path_text(const std::vector<PathStep>& path, std::size_t max_lines, std::ostream& out) const;
    // The same as data for ompp-view html: each step with its region's name,
    // file and line, times in seconds from the trace's start; the shares per
    // region; the Graphviz text of write_dot.
    void write_json(const std::vector<PathStep>& path, std::ostream& out) const;
    // Graphviz: events collapsed by (event kind, region) over all threads and
    // instances, edges by their kind with counts; the critical path in red.
    void write_dot(std::ostream& out) const;

private:
    using NodeId = std::uint32_t;
    struct Node {
        std::uint64_t location;
        std::uint32_t index;
    };
    struct CrossEdge {
        NodeId to;
        NodeId from;
        EdgeKind kind;
    };
    struct PathEdge {
        NodeId from;
        NodeId to;
        EdgeKind kind;
    };
    // The critical path edge by edge, first to last.
    std::vector<PathEdge> critical_edges() const;
    NodeId id(std::uint64_t location, std::size_t index) const;
    Node node(NodeId id) const;
    const Event& event(NodeId id) const;
    std::string label(std::uint32_t region) const;
    std::vector<PathShare> shares(const std::vector<PathStep>& path) const;
    // The region's label, construct kind ("critical sblock", "user", ...), file and line.
    nlohmann::ordered_json region_json(std::uint32_t region) const;

    const Trace& trace_;
    std::vector<std::uint64_t> locations_;   // by position
    std::vector<NodeId> first_;              // first node id of each location position
    std::vector<std::uint32_t> innermost_;   // per node: the innermost open region after it
    std::vector<CrossEdge> cross_;           // sorted by `to`
    std::size_t node_count_ = 0;
};

}  // namespace ompp::trace_tool
