// report_text.hpp - small formatting pieces the analyses' report sections
// share: ompP's section banner and how a region is named in text.
#pragma once

#include <string>
#include <string_view>

#include "model/profile.hpp"

namespace ompp::analyses {

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
std::string region_title(const model::Profile& profile, std::optional<std::uint32_t> region);
// "LOOP imbalance.cpp (19-23) in main" (ompP's property context).
std::string region_context(const model::Profile& profile, const model::Region& region);
// "imbalance.cpp (19-23) in main": the file relative to the profile's
// source_root, " in <function>" when the instrumenter named one.
std::string source_range(const model::Profile& profile, const model::Region& region);
// A region file as the text report names it: relative to source_root.
std::string_view display_file(const model::Profile& profile, const std::string& file);

const model::Region* find_region(const model::Profile& profile, std::optional<std::uint32_t> region);

}  // namespace ompp::analyses
