// trace.hpp - an OTF2 archive written by libompp (OMPP_TRACE), read whole
// through the OTF2 reader library: its regions, threads, teams and each
// thread's events in time order.  ompp-trace's commands work on this.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <otf2/OTF2_Definitions.h>

namespace ompp::trace_tool {

struct Region {
    std::string name;
    std::string file;
    std::uint32_t line = 0;
    OTF2_RegionRole role = OTF2_REGION_ROLE_UNKNOWN;
    std::string where() const { return file.empty() ? name : file + ":" + std::to_string(line); }
};

enum class Kind : std::uint8_t {
    Enter,
    Leave,
    Fork,
    Join,
    TeamBegin,
    TeamEnd,
    AcquireLock,
    ReleaseLock,
    TaskCreate,
    TaskSwitch,
    TaskComplete,
};
inline constexpr int kKinds = static_cast<int>(Kind::TaskComplete) + 1;
const char* to_string(Kind kind);

// An OTF2 task: (creating thread, its count); (thread, 0) is the implicit task.
struct TaskKey {
    std::uint32_t creator = 0;
    std::uint32_t generation = 0;
    auto operator<=>(const TaskKey&) const = default;
};

struct Event {
    std::uint64_t time = 0;  // ticks since the measurement's start
    Kind kind = Kind::Enter;
    std::uint32_t region = 0;  // Enter/Leave
    std::uint32_t a = 0;       // Fork: threads requested; locks: lock id; tasks: creator; team: comm
    std::uint32_t b = 0;       // locks: acquisition order; tasks: generation
    TaskKey task() const { return {a, b}; }
};

struct Trace {
    std::uint64_t ticks_per_second = 1'000'000'000;
    std::uint64_t length = 0;
    std::vector<Region> regions;                        // by OTF2 region reference
    std::map<std::uint64_t, std::vector<Event>> threads;  // by location, each in time order
    std::map<std::uint32_t, std::uint64_t> team_master;  // comm -> the location whose team it is
    double seconds(std::uint64_t ticks) const {
        return static_cast<double>(ticks) / static_cast<double>(ticks_per_second);
    }
};

// Reads `path` (the archive directory or its traces.otf2 anchor file);
// throws std::runtime_error naming the file on failure.
Trace read_trace(const std::string& path);

}  // namespace ompp::trace_tool

namespace ompp::trace_tool {

// Follows one thread's events in order: the task it runs (ThreadTaskSwitch)
// and each task's open regions, as OTF2 defines them (a call stack per task).
class ThreadWalk {
public:
    struct Open {
        std::uint32_t region;
        std::uint64_t since;
    };
    explicit ThreadWalk(std::uint64_t location)
        : location_(location), current_{static_cast<std::uint32_t>(location), 0} {}

    // Applies `event`; returns what is wrong with it (empty: nothing).  For
    // a Leave that matches, `left()` is the region it closes.
    std::string step(const Event& event, const Trace& trace);
    TaskKey current() const { return current_; }
    // Where the thread is: the running task's open regions.  Between a
    // task's completion and the switch to the next the thread is back at
    // the scheduling point where that task began (a barrier, a taskwait, a
    // task creation): the open regions of the task it suspended there.
    const std::vector<Open>& stack() const;
    const Open& left() const { return left_; }
    // Regions still open in any task at the end.
    std::size_t open_regions() const;

private:
    std::uint64_t location_;
    TaskKey current_;
    bool current_completed_ = false;
    std::vector<TaskKey> suspended_;  // tasks this thread switched away from, unfinished, innermost last
    std::map<TaskKey, std::vector<Open>> stacks_{{current_, {}}};
    Open left_{0, 0};
};

}  // namespace ompp::trace_tool
