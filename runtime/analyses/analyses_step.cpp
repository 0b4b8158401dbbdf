#include "analyses/analyses_step.hpp"

namespace ompp::analyses {

// Nothing to analyse yet: the analyses helper replaces these bodies.
void on_measurement_start(core::Measurement&, const config::Config&) {}
void on_user_snapshot(core::Measurement&, std::string_view) {}
void run_analyses(model::Profile&, const config::Config&) {}
void append_text_sections(std::string&, const model::Profile&) {}

}  // namespace ompp::analyses
