// overheads_report.hpp - ompP's "Overhead Analysis Report" text section from
// the Overheads record the analysis filled in.
#pragma once

#include <string>

#include "model/profile.hpp"

namespace ompp::analyses {

void append_overhead_report(std::string& out, const model::Profile& profile);

}  // namespace ompp::analyses
