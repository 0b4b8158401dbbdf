// analyses_step.hpp - where the analyses plug into the runtime's pipeline:
//
//   measurement core -> model::Profile -> run_analyses() -> writers
//
// runtime/analyses/ (overheads, properties, control flow, snapshots) and
// runtime/counters/ fill these functions in; until they do, the profile
// passes through unchanged.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/options.hpp"
#include "core/measurement.hpp"
#include "model/profile.hpp"
#include "model/report_text.hpp"

namespace ompp::analyses {

// Measurement starts (before any event is recorded): install counter
// sources, start the snapshot thread.
void on_measurement_start(core::Measurement& measurement, const config::Config& config);

// POMP2_USER_Snapshot(label).
void on_user_snapshot(core::Measurement& measurement, std::string_view label);

// Measurement has stopped; `profile` is complete except for the analyses'
// results (overheads, properties, snapshots, counter names), added here.
void run_analyses(model::Profile& profile, const config::Config& config);

// The analyses' parts of the text report - the summary (summary/) that opens
// it and the sections after the runtime's - which the adapter hands to
// writers::to_text (writers do not call the analyses).
model::AnalysesText text_sections(const model::Profile& profile);

}  // namespace ompp::analyses
