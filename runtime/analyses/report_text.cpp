#include "analyses/report_text.hpp"

#include <fmt/format.h>

#include <iterator>

namespace ompp::analyses {

using model::RegionKind;

void append_section_header(std::string& out, std::string_view title) {
    constexpr std::size_t kWidth = 70;
    const std::string rule(kWidth, '-');
    std::string middle = fmt::format("----     {}     ", title);
    if (middle.size() < kWidth) middle.append(kWidth - middle.size(), '-');
    fmt::format_to(std::back_inserter(out), "{}\n{}\n{}\n", rule, middle, rule);
}

std::string_view kind_name(RegionKind kind) {
    switch (kind) {
    case RegionKind::Parallel: return "PARALLEL";
    case RegionKind::ParallelLoop: return "PARALLEL_LOOP";
    case RegionKind::ParallelSections: return "PARALLEL_SECTIONS";
    case RegionKind::ParallelMaster: return "PARALLEL_MASTER";
    case RegionKind::Loop: return "LOOP";
    case RegionKind::Sections: return "SECTIONS";
    case RegionKind::Section: return "SECTION";
    case RegionKind::Single: return "SINGLE";
    case RegionKind::Master: return "MASTER";
    case RegionKind::Masked: return "MASKED";
    case RegionKind::Critical: return "CRITICAL";
    case RegionKind::Atomic: return "ATOMIC";
    case RegionKind::Flush: return "FLUSH";
    case RegionKind::Barrier: return "BARRIER";
    case RegionKind::Ordered: return "ORDERED";
    case RegionKind::Task: return "TASK";
    case RegionKind::Taskwait: return "TASKWAIT";
    case RegionKind::Taskgroup: return "TASKGROUP";
    case RegionKind::Taskloop: return "TASKLOOP";
    case RegionKind::Taskyield: return "TASKYIELD";
    case RegionKind::Scope: return "SCOPE";
    case RegionKind::Workshare: return "WORKSHARE";
    case RegionKind::Cancel: return "CANCEL";
    case RegionKind::CancellationPoint: return "CANCELLATION_POINT";
    case RegionKind::Lock: return "LOCK";
    case RegionKind::UserRegion: return "USER_REGION";
    }
    return "UNKNOWN";
}

std::string region_number(std::uint32_t region) { return fmt::format("R{:05}", region); }

const model::Region* find_region(const model::Profile& profile, std::optional<std::uint32_t> region) {
    if (!region) return nullptr;
    for (const auto& r : profile.regions)
        if (r.id == *region) return &r;
    return nullptr;
}

std::string source_range(const model::Region& region) {
    int last = region.block_end.last_line ? region.block_end.last_line : region.directive.last_line;
    return fmt::format("{} ({}-{})", region.directive.file, region.directive.first_line,
                       last ? last : region.directive.first_line);
}

std::string region_context(const model::Region& region) {
    std::string context = fmt::format("{} {}", kind_name(region.kind), source_range(region));
    if (region.name) context += fmt::format(" '{}'", *region.name);
    return context;
}

std::string region_title(const model::Profile& profile, std::optional<std::uint32_t> region) {
    if (!region) return "(program)";
    const auto* r = find_region(profile, region);
    if (!r) return region_number(*region);
    std::string title = fmt::format("{} {} {}", region_number(r->id), source_range(*r), kind_name(r->kind));
    if (r->name) title += fmt::format(" '{}'", *r->name);
    return title;
}

}  // namespace ompp::analyses
