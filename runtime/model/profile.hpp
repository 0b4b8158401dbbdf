// profile.hpp - the finished profile: what the measurement core hands to the
// analyses and the writers once measurement stops (or a snapshot is taken).
//
// Layering: POMP2 adapter -> measurement core -> (this model) -> analyses ->
// writers.  The model is plain data with no behaviour and no dependency on
// how it was measured, so analyses and writers are unit-tested on profiles
// built by hand.  Times are seconds, counts are integers.  It mirrors
// docs/profile-json.md (the JSON contract) field by field.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ompp::model {

// One kind per instrumented construct, in the order of the rows of
// <pomp2/ompp_regions.def> (the one table of region kinds and their names).
// Spelled as in the JSON contract by to_string(RegionKind) (PARALLEL,
// PARALLEL_LOOP, ...).
enum class RegionKind : std::uint8_t {
#define OMPP_REGION_KIND(Kind, JsonName, ReportName) Kind,
#include <pomp2/ompp_regions.def>
};

inline constexpr std::size_t kMaxCounters = 4;

struct SourceRange {
    std::string file;  // as the user named it on the compile command line
    int first_line = 0;
    int last_line = 0;
};

struct Region {
    std::uint32_t id = 0;
    RegionKind kind = RegionKind::UserRegion;
    std::optional<std::string> name;  // critical name, user region name, lock name
    SourceRange directive;            // sscl: the directive (or macro expansion site)
    SourceRange block_end;            // escl: the end of the structured block
    std::optional<std::string> function{};  // the enclosing function, as the instrumenter names it
    bool timed = true;  // false: counted without a clock read (CTC timing=count: atomic, flush)
};

enum class NodeKind : std::uint8_t { Root, Region, ImplicitBarrier, TaskRoot, TaskStub };

// One thread's measurements at one call-tree node.  The sub-times are ompP's
// (docs/runtime.md): they stay zero where a construct has no such phase.
struct ThreadMetrics {
    std::uint32_t thread = 0;       // global thread id (see Profile::threads_info)
    std::uint64_t visits = 0;       // execC
    double inclusive_s = 0;         // execT
    double exclusive_s = 0;
    double min_s = 0;               // shortest visit
    double max_s = 0;               // longest visit
    double body_s = 0;              // bodyT / sectT / singleT
    std::uint64_t body_count = 0;   // sectC / singleC
    double enter_s = 0;             // enterT: waiting to enter (critical, lock, ordered)
    double exit_s = 0;              // exitT: leaving (critical, lock, ordered)
    double startup_s = 0;           // startupT: fork -> body begin (parallel)
    double shutdown_s = 0;          // shutdwnT: body end -> join (parallel)
    double task_s = 0;              // taskT: tasks run while in this node's waits
    std::uint64_t task_switches = 0;  // task_stub: task begins and resumes here
    std::uint64_t bytes = 0;        // MPI regions: bytes sent and received (count x type size)
    // Parallel regions: the bodies (bodyT) whose CPU use was sampled, their
    // wall time, the thread's CPU time in them and the time it was runnable
    // but not running there (docs/analyses.md, "Preemption").  All zero
    // when none was sampled.
    std::uint64_t cpu_samples = 0;
    double cpu_sampled_s = 0;
    double cpu_s = 0;
    double run_delay_s = 0;
    std::array<double, kMaxCounters> counters_inclusive{};
    std::array<double, kMaxCounters> counters_exclusive{};
};

// Control flow (ompP CFG paper, Fig. 4): how often `thread` entered this node
// right after `node` (its parent, or the sibling it exited just before).
struct Predecessor {
    std::uint32_t node = 0;
    std::uint32_t thread = 0;
    std::uint64_t count = 0;
};

struct Node {
    std::uint32_t id = 0;
    std::optional<std::uint32_t> parent;  // parents come before children
    NodeKind kind = NodeKind::Root;
    std::optional<std::uint32_t> region;  // see docs/profile-json.md
    std::vector<ThreadMetrics> threads;   // one entry per thread that visited
    std::vector<Predecessor> predecessors;
    // Call paths deeper than Profile::max_depth fold into one node per region
    // under the node at that depth; for such a node, the deepest nesting of
    // its visits on one thread (> 1: recursion).  0: not folded.
    std::uint64_t recursion_depth = 0;
};

// Per task construct (task-profiling seed, Table II).
struct TaskStatistics {
    std::uint32_t region = 0;
    std::uint64_t instances = 0;  // every instance, included ones too
    double mean_s = 0, min_s = 0, max_s = 0;  // execution time per instance run apart (instances - included)
    double creation_s = 0;                    // summed time in task creation
    std::uint64_t max_concurrent_per_thread = 0;
    // Instances run inside their creation (undeferred, included): counted
    // here, their time is the creation's (creation_s).
    std::uint64_t included = 0;
};

struct ThreadInfo {
    std::uint32_t thread = 0;
    int team_level = 0;           // omp_get_level() at first sight
    std::uint32_t parent_thread = 0;
};

struct OverheadClasses {
    double synchronization_s = 0;
    double imbalance_s = 0;
    double limited_parallelism_s = 0;
    double thread_management_s = 0;
    double total() const {
        return synchronization_s + imbalance_s + limited_parallelism_s + thread_management_s;
    }
};

struct RegionOverheads {
    std::uint32_t region = 0;
    double total_s = 0;  // region wallclock x team size
    OverheadClasses classes;
};

struct Overheads {
    double total_s = 0;  // wall_time_s x threads
    OverheadClasses program;
    std::vector<RegionOverheads> regions;
};

struct Property {
    std::string name;  // ompP's names, e.g. ImbalanceInParallelLoop
    std::optional<std::uint32_t> region;
    double severity_pct = 0;
    std::string text;
};

struct SnapshotRegion {
    std::uint32_t region = 0;
    std::uint64_t visits = 0;
    double exclusive_s = 0;
    std::array<double, kMaxCounters> counters_exclusive{};
};

struct Snapshot {
    double time_s = 0;  // since measurement start
    std::optional<std::string> label;
    std::vector<SnapshotRegion> regions;
    OverheadClasses overheads;
};

struct Warning {
    std::string text;  // names the region's location
    std::optional<std::uint32_t> region;
    std::uint64_t occurrences = 1;
};

struct CounterInfo {
    std::string name;    // as given in OMPP_CTRn
    std::string source;  // papi | software
};

// The MPI process this profile is of (docs/mpi.md): from the launcher's
// environment, confirmed by MPI_Init when libompp_mpi is linked in.
struct MpiProcess {
    int rank = 0;
    int size = 1;
    std::string host;
};

struct Profile {
    std::string application;
    std::optional<MpiProcess> mpi;  // none: not an MPI program
    // The deepest directory holding every region's file: the text report
    // names files relative to it (the JSON keeps them as compiled).
    std::string source_root;
    std::uint32_t threads = 0;  // largest team size seen
    std::uint32_t max_depth = 0;  // OMPP_MAX_DEPTH: call paths deeper than this are folded
    double wall_time_s = 0;
    std::string start_date, end_date;  // ISO 8601, local time
    double user_time_s = 0, system_time_s = 0;
    bool final_report = true;          // false for an on-demand dump
    std::vector<CounterInfo> counters;
    std::vector<std::string> counter_errors;  // e.g. "PAPI: no hardware counters"
    std::vector<Region> regions;
    std::vector<Node> nodes;
    std::vector<ThreadInfo> threads_info;
    std::vector<TaskStatistics> tasks;
    Overheads overheads;
    std::vector<Property> properties;
    std::vector<Snapshot> snapshots;
    std::vector<Warning> warnings;
    // Invariants of a finished profile it breaks (analyses/invariants):
    // empty unless ompp has a bug.
    std::vector<std::string> invariant_violations;
};

}  // namespace ompp::model
