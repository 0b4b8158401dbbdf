#include "analyses/summary/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

#include "analyses/overheads/overheads.hpp"
#include "analyses/profile_index.hpp"
#include "model/report_text.hpp"

namespace ompp::analyses {
namespace {

double percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

struct RegionTime {
    double exclusive_s = 0;  // thread-seconds, nested regions excluded, its barriers and task waits included
    std::uint64_t instances = 0;
};

// Every node's exclusive time belongs to its region (the root's to the code
// outside any region), so the times add up to the total thread time.
std::map<std::uint32_t, RegionTime> time_by_region(const model::Profile& profile, double& outside_s) {
    std::map<std::uint32_t, RegionTime> times;
    outside_s = 0;
    for (const auto& node : profile.nodes) {
        const double exclusive = sum_over_threads(node, &model::ThreadMetrics::exclusive_s);
        if (!node.region) {
            outside_s += exclusive;
            continue;
        }
        RegionTime& time = times[*node.region];
        time.exclusive_s += exclusive;
        // Instances: the visits of the construct's own nodes, counted on the
        // thread that visited most (a parallel region's master).
        if (node.kind == model::NodeKind::Region) {
            std::uint64_t most = 0;
            for (const auto& m : node.threads) most = std::max(most, m.visits);
            time.instances += most;
        }
    }
    return times;
}

// A function's regions together: a kernel split into many small regions
// (a halo exchange of 80 loops) is where the time goes even when none of
// its regions is.  Regions without a function count under their file.
struct FunctionTime {
    double exclusive_s = 0;
    std::size_t regions = 0;
};

std::vector<std::pair<std::string, FunctionTime>> time_by_function(const model::Profile& profile,
                                                                   const std::map<std::uint32_t, RegionTime>& times) {
    std::map<std::string, FunctionTime> functions;
    for (const auto& [region, time] : times) {
        const model::Region* r = model::find_region(profile, region);
        if (r == nullptr) continue;
        FunctionTime& f = functions[r->function ? fmt::format("{} ({})", *r->function,
                                                              model::display_file(profile, r->directive.file))
                                                : fmt::format("({})", model::display_file(profile, r->directive.file))];
        f.exclusive_s += time.exclusive_s;
        ++f.regions;
    }
    std::vector<std::pair<std::string, FunctionTime>> ranked(functions.begin(), functions.end());
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second.exclusive_s > b.second.exclusive_s; });
    return ranked;
}

}  // namespace

void append_summary(std::string& out, const model::Profile& profile) {
    auto it = std::back_inserter(out);
    model::append_section_header(out, "ompp Summary");
    const double coverage = parallel_coverage(ProfileIndex(profile));
    fmt::format_to(it, "{:.2f} sec on {} thread{}, {} region{}, parallel coverage {:.2f} sec ({:.1f}%)\n",
                   profile.wall_time_s, profile.threads, profile.threads == 1 ? "" : "s", profile.regions.size(),
                   profile.regions.size() == 1 ? "" : "s", coverage, percent(coverage, profile.wall_time_s));
    if (!profile.final_report) {
        fmt::format_to(it, "Invariant check: not run (incremental report)\n");
    } else if (profile.invariant_violations.empty()) {
        fmt::format_to(it, "Invariant check: clean (the figures add up)\n");
    } else {
        fmt::format_to(it, "Invariant check: WARNING, {} violation(s), first: {}\n",
                       profile.invariant_violations.size(), profile.invariant_violations.front());
    }
    if (!profile.source_root.empty()) fmt::format_to(it, "Files relative to {}\n", profile.source_root);
    if (!profile.warnings.empty())
        fmt::format_to(it, "Warnings: {} kind(s), see \"ompp Warnings\"\n", profile.warnings.size());

    double outside_s = 0;
    const auto times = time_by_region(profile, outside_s);
    double total_s = outside_s;
    for (const auto& [region, time] : times) total_s += time.exclusive_s;
    std::vector<std::pair<std::uint32_t, RegionTime>> ranked(times.begin(), times.end());
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second.exclusive_s > b.second.exclusive_s; });
    fmt::format_to(it, "\nWhere the time goes: thread-seconds in each region, nested regions excluded\n"
                       "(of {:.2f} thread-seconds measured; {} of {} regions shown):\n",
                   total_s, std::min(kSummaryRegions, ranked.size()), ranked.size());
    fmt::format_to(it, "{:>10} {:>7} {:>9}  {}\n", "seconds", "(%)", "execC", "region");
    for (std::size_t i = 0; i < ranked.size() && i < kSummaryRegions; ++i) {
        const auto& [region, time] = ranked[i];
        const model::Region* r = model::find_region(profile, region);
        const std::string label = r ? fmt::format("{} {}", model::region_number(r->id), model::region_context(profile, *r))
                                    : model::region_number(region);
        fmt::format_to(it, "{:>10.2f} ({:4.1f}%) {:>9}  {}\n", time.exclusive_s, percent(time.exclusive_s, total_s),
                       time.instances, label);
    }
    fmt::format_to(it, "{:>10.2f} ({:4.1f}%) {:>9}  outside any region (serial code)\n", outside_s,
                   percent(outside_s, total_s), "");

    const auto functions = time_by_function(profile, times);
    fmt::format_to(it, "\nBy function (its regions together):\n{:>10} {:>7} {:>9}  {}\n", "seconds", "(%)", "regions",
                   "function (file)");
    for (std::size_t i = 0; i < functions.size() && i < kSummaryFunctions; ++i) {
        const auto& [name, time] = functions[i];
        fmt::format_to(it, "{:>10.2f} ({:4.1f}%) {:>9}  {}\n", time.exclusive_s, percent(time.exclusive_s, total_s),
                       time.regions, name);
    }

    fmt::format_to(it, "\nWhy: the strongest performance properties (severity: % of total thread time):\n");
    if (profile.properties.empty()) fmt::format_to(it, "  none holds\n");
    for (std::size_t i = 0; i < profile.properties.size() && i < kSummaryProperties; ++i) {
        const auto& property = profile.properties[i];
        const model::Region* r = model::find_region(profile, property.region);
        fmt::format_to(it, "{:>9.2f}%  {:<34} {}\n", property.severity_pct, property.name,
                       r ? fmt::format("{} {}", model::region_number(r->id), model::region_context(profile, *r))
                         : std::string("(program)"));
    }

    const auto& o = profile.overheads;
    const double base = o.total_s;
    fmt::format_to(it, "\nOverheads: {:.2f} s ({:.1f}% of duration x threads = {:.2f} s)\n", o.program.total(),
                   percent(o.program.total(), base), base);
    fmt::format_to(it, "  synchronisation {:.2f} ({:.1f}%)  imbalance {:.2f} ({:.1f}%)  limited parallelism {:.2f} "
                       "({:.1f}%)  thread management {:.2f} ({:.1f}%)\n\n",
                   o.program.synchronization_s, percent(o.program.synchronization_s, base), o.program.imbalance_s,
                   percent(o.program.imbalance_s, base), o.program.limited_parallelism_s,
                   percent(o.program.limited_parallelism_s, base), o.program.thread_management_s,
                   percent(o.program.thread_management_s, base));
}

}  // namespace ompp::analyses
