// text_writer.hpp - the human report in ompP's layout: General Information,
// Region Overview, Callgraph, Flat Region Profiles, Callgraph Region
// Profiles, Task Statistics, Warnings; opened by the analyses' summary and
// followed by the sections they add (overheads, properties, control flow,
// snapshots).
#pragma once

#include <string>
#include <string_view>

#include "model/profile.hpp"
#include "model/report_text.hpp"

namespace ompp::writers {

// `analyses`: the analyses' summary and sections (analyses::text_sections).
// The writer is handed them: it formats a finished profile and never calls
// back into the analyses.
std::string to_text(const model::Profile& profile, const model::AnalysesText& analyses = {});

}  // namespace ompp::writers
