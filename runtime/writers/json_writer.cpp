#include "writers/json_writer.hpp"

#include <string>
#include <unordered_set>

#include "model/names.hpp"

namespace ompp::writers {
namespace {

using nlohmann::json;

template <typename T>
json optional_value(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

json counters_json(const std::array<double, model::kMaxCounters>& values, std::size_t used) {
    json out = json::array();
    for (std::size_t i = 0; i < used && i < values.size(); ++i) out.push_back(values[i]);
    return out;
}

json classes_json(const model::OverheadClasses& classes) {
    return {{"synchronization_s", classes.synchronization_s},
            {"imbalance_s", classes.imbalance_s},
            {"limited_parallelism_s", classes.limited_parallelism_s},
            {"thread_management_s", classes.thread_management_s}};
}

json thread_metrics_json(const model::ThreadMetrics& m, std::size_t counters, bool moves_bytes) {
    json out = {{"thread", m.thread},           {"visits", m.visits},
                {"inclusive_s", m.inclusive_s}, {"exclusive_s", m.exclusive_s},
                {"min_s", m.min_s},             {"max_s", m.max_s},
                {"body_s", m.body_s},           {"body_count", m.body_count},
                {"enter_s", m.enter_s},         {"exit_s", m.exit_s},
                {"startup_s", m.startup_s},     {"shutdown_s", m.shutdown_s},
                {"task_s", m.task_s},           {"task_switches", m.task_switches}};
    if (moves_bytes) out["bytes"] = m.bytes;
    if (m.cpu_samples > 0) {
        out["cpu_samples"] = m.cpu_samples;
        out["cpu_sampled_s"] = m.cpu_sampled_s;
        out["cpu_s"] = m.cpu_s;
        out["run_delay_s"] = m.run_delay_s;
    }
    if (counters > 0) {
        out["counters_inclusive"] = counters_json(m.counters_inclusive, counters);
        out["counters_exclusive"] = counters_json(m.counters_exclusive, counters);
    }
    return out;
}

}  // namespace

json to_json(const model::Profile& profile) {
    const std::size_t counters = profile.counters.size();
    json out;
    out["format"] = "ompp-profile";
    out["version"] = 1;
    out["application"] = profile.application;
    out["threads"] = profile.threads;
    out["max_depth"] = profile.max_depth;
    out["wall_time_s"] = profile.wall_time_s;
    out["start_date"] = profile.start_date;
    out["end_date"] = profile.end_date;
    out["user_time_s"] = profile.user_time_s;
    out["system_time_s"] = profile.system_time_s;
    out["final_report"] = profile.final_report;
    out["source_root"] = profile.source_root;
    if (profile.mpi) {
        out["mpi"] = {{"rank", profile.mpi->rank}, {"size", profile.mpi->size}, {"host", profile.mpi->host}};
    }

    json& counter_list = out["counters"] = json::array();
    for (const auto& counter : profile.counters) {
        counter_list.push_back({{"name", counter.name}, {"source", counter.source}});
    }
    out["counter_errors"] = profile.counter_errors;

    json& regions = out["regions"] = json::array();
    for (const auto& region : profile.regions) {
        regions.push_back({{"id", region.id},
                           {"kind", model::to_string(region.kind)},
                           {"name", optional_value(region.name)},
                           {"function", optional_value(region.function)},
                           {"file", region.directive.file},
                           {"first_line", region.directive.first_line},
                           {"last_line", std::max(region.block_end.last_line, region.directive.last_line)},
                           {"directive_last_line", region.directive.last_line},
                           {"block_end_file", region.block_end.file},
                           {"block_end_first_line", region.block_end.first_line},
                           {"timed", region.timed}});
    }

    std::unordered_set<std::uint32_t> mpi_regions;
    for (const auto& region : profile.regions) {
        if (region.kind == model::RegionKind::Mpi) mpi_regions.insert(region.id);
    }
    json& nodes = out["nodes"] = json::array();
    for (const auto& node : profile.nodes) {
        const bool moves_bytes = node.kind == model::NodeKind::Region && node.region && mpi_regions.contains(*node.region);
        json threads = json::array();
        for (const auto& m : node.threads) threads.push_back(thread_metrics_json(m, counters, moves_bytes));
        json predecessors = json::array();
        for (const auto& p : node.predecessors) {
            predecessors.push_back({{"node", p.node}, {"thread", p.thread}, {"count", p.count}});
        }
        json& added = nodes.emplace_back(json{{"id", node.id},
                                              {"parent", optional_value(node.parent)},
                                              {"kind", model::to_string(node.kind)},
                                              {"region", optional_value(node.region)},
                                              {"threads", std::move(threads)},
                                              {"predecessors", std::move(predecessors)}});
        if (node.recursion_depth > 0) added["recursion_depth"] = node.recursion_depth;
    }

    json& threads_info = out["threads_info"] = json::array();
    for (const auto& info : profile.threads_info) {
        threads_info.push_back(
            {{"thread", info.thread}, {"team_level", info.team_level}, {"parent_thread", info.parent_thread}});
    }

    json& tasks = out["tasks"] = json::array();
    for (const auto& task : profile.tasks) {
        tasks.push_back({{"region", task.region},
                         {"instances", task.instances},
                         {"included", task.included},
                         {"mean_s", task.mean_s},
                         {"min_s", task.min_s},
                         {"max_s", task.max_s},
                         {"creation_s", task.creation_s},
                         {"max_concurrent_per_thread", task.max_concurrent_per_thread}});
    }

    json program = classes_json(profile.overheads.program);
    program["total_s"] = profile.overheads.total_s;
    json overhead_regions = json::array();
    for (const auto& region : profile.overheads.regions) {
        json entry = classes_json(region.classes);
        entry["region"] = region.region;
        entry["total_s"] = region.total_s;
        overhead_regions.push_back(std::move(entry));
    }
    out["overheads"] = {{"program", std::move(program)}, {"regions", std::move(overhead_regions)}};

    json& properties = out["properties"] = json::array();
    for (const auto& property : profile.properties) {
        properties.push_back({{"name", property.name},
                              {"region", optional_value(property.region)},
                              {"severity_pct", property.severity_pct},
                              {"text", property.text}});
    }

    json& snapshots = out["snapshots"] = json::array();
    for (const auto& snapshot : profile.snapshots) {
        json regions_at = json::array();
        for (const auto& r : snapshot.regions) {
            json entry = {{"region", r.region}, {"visits", r.visits}, {"exclusive_s", r.exclusive_s}};
            if (counters > 0) entry["counters_exclusive"] = counters_json(r.counters_exclusive, counters);
            regions_at.push_back(std::move(entry));
        }
        snapshots.push_back({{"time_s", snapshot.time_s},
                             {"label", optional_value(snapshot.label)},
                             {"regions", std::move(regions_at)},
                             {"overheads", classes_json(snapshot.overheads)}});
    }

    json& warnings = out["warnings"] = json::array();
    for (const auto& warning : profile.warnings) {
        warnings.push_back({{"text", warning.text},
                            {"region", optional_value(warning.region)},
                            {"occurrences", warning.occurrences}});
    }
    out["invariant_violations"] = profile.invariant_violations;
    return out;
}

}  // namespace ompp::writers
