#include "analyses/overheads/overheads_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "analyses/overheads/overheads.hpp"
#include "analyses/profile_index.hpp"
#include "model/report_text.hpp"
#include "model/names.hpp"

namespace ompp::analyses {

namespace {

double percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

// Wallclock per parallel region: the master's fork-to-join time, summed over
// the call paths the region was reached on.
std::map<std::uint32_t, double> parallel_wallclock(const model::Profile& profile) {
    ProfileIndex index(profile);
    std::map<std::uint32_t, double> wallclock;
    for (const auto& node : profile.nodes) {
        if (node.kind != model::NodeKind::Region || !node.region) continue;
        auto kind = index.region_kind(node);
        if (!kind || !is_parallel(*kind) || node.threads.empty()) continue;
        wallclock[*node.region] += parallel_region_total(node) / static_cast<double>(node.threads.size());
    }
    return wallclock;
}

void append_overhead_row(std::string& out, std::string_view label, double total,
                         const model::OverheadClasses& c, double base) {
    fmt::format_to(std::back_inserter(out),
                   "{:>6} {:>9.2f} {:>8.2f} ({:5.2f})  {:>8.2f} ({:5.2f})  {:>8.2f} ({:5.2f})  "
                   "{:>8.2f} ({:5.2f})  {:>8.2f} ({:5.2f})\n",
                   label, total, c.total(), percent(c.total(), base), c.synchronization_s,
                   percent(c.synchronization_s, base), c.imbalance_s, percent(c.imbalance_s, base),
                   c.limited_parallelism_s, percent(c.limited_parallelism_s, base), c.thread_management_s,
                   percent(c.thread_management_s, base));
}

std::string overhead_header() {
    return fmt::format("{:>6} {:>9} {:>16} ={:>16} +{:>16} +{:>16} +{:>16}\n", "", "Total", "Ovhds (%)", "Synch (%)",
                       "Imbal (%)", "Limpar (%)", "Mgmt (%)");
}

}  // namespace

void append_overhead_report(std::string& out, const model::Profile& profile) {
    auto it = std::back_inserter(out);
    const auto& overheads = profile.overheads;
    auto wallclock = parallel_wallclock(profile);
    const double coverage = parallel_coverage(ProfileIndex(profile));

    model::append_section_header(out, "ompP Overhead Analysis Report");
    fmt::format_to(it, "Total runtime (wallclock)   : {:.2f} sec [{} threads]\n", profile.wall_time_s,
                   profile.threads);
    fmt::format_to(it, "Number of parallel regions  : {}\n", wallclock.size());
    fmt::format_to(it, "Parallel coverage           : {:.2f} sec ({:.2f}%)\n\n", coverage,
                   percent(coverage, profile.wall_time_s));

    std::vector<std::pair<std::uint32_t, double>> by_wallclock(wallclock.begin(), wallclock.end());
    std::stable_sort(by_wallclock.begin(), by_wallclock.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    fmt::format_to(it, "Parallel regions sorted by wallclock time:\n");
    fmt::format_to(it, "{:<8}{:<18}{:>32}{:>11} {:>7}\n", "", "Type", "Location", "Wallclock", "(%)");
    for (auto [region, t] : by_wallclock) {
        const auto* r = model::find_region(profile, region);
        fmt::format_to(it, "{:<8}{:<18}{:>32}{:>11.2f} ({:5.2f})\n", model::region_number(region),
                       r ? model::report_name(r->kind) : "?", r ? model::source_range(profile, *r) : "?", t,
                       percent(t, profile.wall_time_s));
    }
    fmt::format_to(it, "{:>58}{:>11.2f} ({:5.2f})\n\n", "SUM", coverage, percent(coverage, profile.wall_time_s));

    fmt::format_to(it, "Overheads wrt. each individual parallel region:\n{}", overhead_header());
    for (const auto& record : overheads.regions)
        append_overhead_row(out, model::region_number(record.region), record.total_s, record.classes, record.total_s);

    fmt::format_to(it, "\nOverheads wrt. whole program:\n{}", overhead_header());
    for (const auto& record : overheads.regions)
        append_overhead_row(out, model::region_number(record.region), record.total_s, record.classes, overheads.total_s);
    append_overhead_row(out, "SUM", overheads.total_s, overheads.program, overheads.total_s);
    out += '\n';
}

}  // namespace ompp::analyses
