// text_writer.hpp - the human report in ompP's layout: General Information,
// Region Overview, Callgraph, Flat Region Profiles, Callgraph Region
// Profiles, Task Statistics, Warnings; then the sections the analyses add
// (overheads, properties, control flow, snapshots).
#pragma once

#include <string>
#include <string_view>

#include "model/profile.hpp"

namespace ompp::writers {

// `analyses_sections`: the analyses' sections (analyses::text_sections),
// appended after the runtime's.  The writer is handed them: it formats a
// finished profile and never calls back into the analyses.
std::string to_text(const model::Profile& profile, std::string_view analyses_sections = {});

}  // namespace ompp::writers
