// analyses.hpp - the analyses step of the finalisation pipeline
// (core -> model::Profile -> analyses -> writers): fills the profile's
// derived parts from its measured parts, and renders their report sections.
#pragma once

#include <string>

#include "model/profile.hpp"

namespace ompp::analyses {

// Fills profile.overheads and profile.properties.
void analyse(model::Profile& profile);

// The analyses' text-report sections, in report order: overhead analysis,
// performance properties, control flow.
void append_analysis_sections(std::string& out, const model::Profile& profile);

}  // namespace ompp::analyses
