#include "analyses/analyses.hpp"

#include "analyses/control_flow/control_flow.hpp"
#include "analyses/overheads/overheads.hpp"
#include "analyses/overheads/overheads_report.hpp"
#include "analyses/properties/properties.hpp"

namespace ompp::analyses {

void analyse(model::Profile& profile) {
    profile.overheads = compute_overheads(profile);
    profile.properties = find_properties(profile);
}

void append_analysis_sections(std::string& out, const model::Profile& profile) {
    append_overhead_report(out, profile);
    append_properties_report(out, profile);
    append_control_flow_report(out, profile);
}

}  // namespace ompp::analyses
