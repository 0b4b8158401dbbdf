// summary.hpp - the first screen of the text report: where the time goes
// (regions by their own thread-seconds, and functions by their regions'
// together), why (the strongest properties) and
// what the overhead classes add up to, so that a report of thousands of
// lines for hundreds of regions answers the first questions at its top.
#pragma once

#include <cstddef>
#include <string>

#include "model/profile.hpp"

namespace ompp::analyses {

inline constexpr std::size_t kSummaryRegions = 10;
inline constexpr std::size_t kSummaryFunctions = 5;
inline constexpr std::size_t kSummaryProperties = 5;

void append_summary(std::string& out, const model::Profile& profile);

}  // namespace ompp::analyses
