#include "model/report_text.hpp"

#include <fmt/format.h>

#include <iterator>

#include "model/names.hpp"

namespace ompp::model {

void append_section_header(std::string& out, std::string_view title) {
    constexpr std::size_t kWidth = 70;
    const std::string rule(kWidth, '-');
    std::string middle = fmt::format("----     {}     ", title);
    if (middle.size() < kWidth) middle.append(kWidth - middle.size(), '-');
    fmt::format_to(std::back_inserter(out), "{}\n{}\n{}\n\n", rule, middle, rule);
}

std::string region_number(std::uint32_t region) { return fmt::format("R{:05}", region); }

const Region* find_region(const Profile& profile, std::optional<std::uint32_t> region) {
    if (!region) return nullptr;
    for (const auto& r : profile.regions)
        if (r.id == *region) return &r;
    return nullptr;
}

std::string_view display_file(const Profile& profile, const std::string& file) {
    std::string_view name = file;
    if (!profile.source_root.empty() && name.starts_with(profile.source_root)) name.remove_prefix(profile.source_root.size());
    return name;
}

std::string source_range(const Profile& profile, const Region& region) {
    // Regions of no source line (MPI functions): the file names where.
    if (region.directive.first_line == 0 && !region.directive.file.empty()) return region.directive.file;
    int last = region.block_end.last_line ? region.block_end.last_line : region.directive.last_line;
    std::string range = fmt::format("{} ({}-{})", display_file(profile, region.directive.file),
                                    region.directive.first_line, last ? last : region.directive.first_line);
    if (region.function) range += fmt::format(" in {}", *region.function);
    return range;
}

std::string region_context(const Profile& profile, const Region& region) {
    std::string context = fmt::format("{} {}", report_name(region.kind), source_range(profile, region));
    if (region.name) context += fmt::format(" '{}'", *region.name);
    return context;
}

std::string region_title(const Profile& profile, std::optional<std::uint32_t> region) {
    if (!region) return "(program)";
    const auto* r = find_region(profile, region);
    if (!r) return region_number(*region);
    std::string title =
        fmt::format("{} {} {}", region_number(r->id), source_range(profile, *r), report_name(r->kind));
    if (r->name) title += fmt::format(" '{}'", *r->name);
    return title;
}

}  // namespace ompp::model
