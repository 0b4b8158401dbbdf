#include <set>

#include <nlohmann/json.hpp>

#include "commands.hpp"

namespace ompp::trace_tool {

namespace {

// Streams the traceEvents array: a million-task trace is not built in memory twice.
class EventArray {
public:
    explicit EventArray(std::ostream& out) : out_(out) { out_ << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"; }
    ~EventArray() { out_ << "\n]}\n"; }
    EventArray(const EventArray&) = delete;
    EventArray& operator=(const EventArray&) = delete;
    void add(const nlohmann::json& event) {
        out_ << (first_ ? "" : ",\n") << event.dump();
        first_ = false;
    }

private:
    std::ostream& out_;
    bool first_ = true;
};

std::string task_id(const TaskKey& task) {
    return std::to_string(task.creator) + "." + std::to_string(task.generation);
}

}  // namespace

void write_perfetto(const Trace& trace, std::ostream& out) {
    EventArray array(out);
    const auto micros = [&](std::uint64_t ticks) { return trace.seconds(ticks) * 1e6; };
    std::set<TaskKey> started;
    for (const auto& [location, events] : trace.threads) {
        const auto tid = static_cast<std::int64_t>(location);
        array.add({{"ph", "M"}, {"name", "thread_name"}, {"pid", 1}, {"tid", tid},
                   {"args", {{"name", "OpenMP thread " + std::to_string(location)}}}});
        ThreadWalk walk(location);
        for (const Event& event : events) {
            walk.step(event, trace);
            const auto instant = [&](const std::string& name, nlohmann::json args) {
                array.add({{"ph", "i"}, {"s", "t"}, {"name", name}, {"ts", micros(event.time)}, {"pid", 1},
                           {"tid", tid}, {"args", std::move(args)}});
            };
            switch (event.kind) {
            case Kind::Leave: {
                const ThreadWalk::Open& open = walk.left();
                if (open.region != event.region) break;  // unmatched: step() said why
                const Region& region = trace.regions.at(event.region);
                array.add({{"ph", "X"}, {"name", region.name}, {"cat", "openmp"}, {"ts", micros(open.since)},
                           {"dur", micros(event.time - open.since)}, {"pid", 1}, {"tid", tid},
                           {"args", {{"source", region.where()}, {"task", task_id(walk.current())}}}});
                break;
            }
            case Kind::Fork: instant("fork", {{"threads requested", event.a}}); break;
            case Kind::Join: instant("join", nlohmann::json::object()); break;
            case Kind::AcquireLock: instant("acquire lock", {{"lock", event.a}, {"order", event.b}}); break;
            case Kind::ReleaseLock: instant("release lock", {{"lock", event.a}}); break;
            case Kind::TaskCreate:
                array.add({{"ph", "s"}, {"name", "task"}, {"cat", "task"}, {"id", task_id(event.task())},
                           {"ts", micros(event.time)}, {"pid", 1}, {"tid", tid}});
                break;
            case Kind::TaskSwitch:
                if (event.b != 0 && started.insert(event.task()).second) {
                    array.add({{"ph", "f"}, {"bp", "e"}, {"name", "task"}, {"cat", "task"},
                               {"id", task_id(event.task())}, {"ts", micros(event.time)}, {"pid", 1}, {"tid", tid}});
                }
                break;
            default: break;
            }
        }
    }
}

}  // namespace ompp::trace_tool
