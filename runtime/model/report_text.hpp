// report_text.hpp - small formatting pieces the text report and the
// analyses' texts share: ompP's section banner and how a region is named.
#pragma once

#include <string>
#include <string_view>

#include "model/profile.hpp"

namespace ompp::model {

// Call trees as deep as a recursion would make the text report grow with
// the square of the depth (every node's call path is printed): its sections
// show nodes to this depth and say what they left out; the JSON has all.
inline constexpr std::size_t kTextReportDepth = 64;

// ompP's section banner, shared by every section of the text report: a
// 70-dash line, "----     <Title>     ----...", a 70-dash line, a blank line.
void append_section_header(std::string& out, std::string_view title);

// "R00004" - ompP's region number.
std::string region_number(std::uint32_t region);
// "R00004 imbalance.cpp (19-23) LOOP" (ompP's flat-profile header), or
// "R00004" when the region is unknown.
std::string region_title(const Profile& profile, std::optional<std::uint32_t> region);
// "LOOP imbalance.cpp (19-23) in main" (ompP's property context).
std::string region_context(const Profile& profile, const Region& region);
// "imbalance.cpp (19-23) in main": the file relative to the profile's
// source_root, " in <function>" when the instrumenter named one.
std::string source_range(const Profile& profile, const Region& region);
// A region file as the text report names it: relative to source_root.
std::string_view display_file(const Profile& profile, const std::string& file);

const Region* find_region(const Profile& profile, std::optional<std::uint32_t> region);

// The analyses' parts of the text report (analyses::text_sections): the
// summary that opens it and the sections after the runtime's.  The writer is
// handed them, so it formats a finished profile without calling the analyses.
struct AnalysesText {
    std::string summary;
    std::string sections;
};

}  // namespace ompp::model
