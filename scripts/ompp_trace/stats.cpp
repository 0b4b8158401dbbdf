#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "commands.hpp"

namespace ompp::trace_tool {

std::size_t write_stats(const Trace& trace, std::ostream& out) {
    nlohmann::ordered_json problems = nlohmann::json::array();
    std::map<std::string, std::uint64_t> kinds;
    std::map<std::string, std::uint64_t> enters;
    std::set<TaskKey> created, started, completed;
    std::map<std::uint32_t, std::int64_t> held;  // lock -> acquires minus releases
    std::set<std::pair<std::uint32_t, std::uint32_t>> orders;  // (lock, acquisition order): each once
    nlohmann::ordered_json threads = nlohmann::json::object();
    std::uint64_t events = 0;
    for (const auto& [location, thread_events] : trace.threads) {
        ThreadWalk walk(location);
        std::map<std::string, std::uint64_t> thread_kinds;
        std::uint64_t previous = 0;
        std::map<std::uint32_t, std::vector<std::uint32_t>> holding;  // lock -> orders this thread holds
        for (const Event& event : thread_events) {
            if (event.time < previous) {
                problems.push_back("thread " + std::to_string(location) + ": time goes back at " +
                                   std::to_string(event.time));
            }
            previous = event.time;
            if (std::string problem = walk.step(event, trace); !problem.empty()) problems.push_back(problem);
            ++thread_kinds[to_string(event.kind)];
            ++kinds[to_string(event.kind)];
            switch (event.kind) {
            case Kind::Enter:
                if (event.region < trace.regions.size()) ++enters[trace.regions[event.region].name];
                break;
            case Kind::TaskCreate: created.insert(event.task()); break;
            case Kind::TaskSwitch:
                if (event.b != 0) started.insert(event.task());
                break;
            case Kind::TaskComplete: completed.insert(event.task()); break;
            case Kind::AcquireLock:
                ++held[event.a];
                holding[event.a].push_back(event.b);
                if (!orders.insert({event.a, event.b}).second) {
                    problems.push_back("lock " + std::to_string(event.a) + ": acquisition order " +
                                       std::to_string(event.b) + " used twice");
                }
                break;
            case Kind::ReleaseLock:
                --held[event.a];
                if (holding[event.a].empty() || holding[event.a].back() != event.b) {
                    problems.push_back("thread " + std::to_string(location) + ": release of lock " +
                                       std::to_string(event.a) + " (order " + std::to_string(event.b) +
                                       ") it did not acquire");
                } else {
                    holding[event.a].pop_back();
                }
                break;
            default: break;
            }
        }
        if (walk.open_regions() > 0) {
            problems.push_back("thread " + std::to_string(location) + ": " + std::to_string(walk.open_regions()) +
                               " region(s) never left");
        }
        events += thread_events.size();
        threads[std::to_string(location)] = thread_kinds;
    }
    for (const TaskKey& task : created) {
        if (!completed.contains(task)) {
            problems.push_back("task " + std::to_string(task.creator) + "." + std::to_string(task.generation) +
                               " created, never completed");
        }
    }
    for (const TaskKey& task : completed) {
        if (!created.contains(task)) {
            problems.push_back("task " + std::to_string(task.creator) + "." + std::to_string(task.generation) +
                               " completed, never created");
        }
    }
    for (const auto& [lock, balance] : held) {
        if (balance != 0) problems.push_back("lock " + std::to_string(lock) + ": acquires and releases differ");
    }
    nlohmann::ordered_json doc;
    doc["threads"] = trace.threads.size();
    doc["events"] = events;
    doc["ticks_per_second"] = trace.ticks_per_second;
    doc["kinds"] = kinds;
    doc["enters"] = enters;
    doc["tasks"] = {{"created", created.size()}, {"started", started.size()}, {"completed", completed.size()}};
    doc["per_thread"] = threads;
    doc["problems"] = problems;
    out << doc.dump(1) << "\n";
    return problems.size();
}

}  // namespace ompp::trace_tool
