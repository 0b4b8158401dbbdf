// text_writer.hpp - the human report in ompP's layout: General Information,
// Region Overview, Callgraph, Flat Region Profiles, Callgraph Region
// Profiles, Task Statistics, Warnings; then the sections the analyses add
// (overheads, properties, control flow, snapshots).
#pragma once

#include <string>

#include "model/profile.hpp"

namespace ompp::writers {

std::string to_text(const model::Profile& profile);

}  // namespace ompp::writers
