// invariants.hpp - checks that a finished profile adds up: every second is
// counted once, a construct's instance is one visit, overheads and coverage
// stay within the time they are shares of.
//
// Run on every final profile (a violation is a bug in ompp, reported as one
// warning line in the text report and the `invariant_violations` key of the
// JSON) and by the tests on profiles of real programs.  docs/analyses.md
// lists the invariants and their tolerances.
#pragma once

#include <string>
#include <vector>

#include "model/profile.hpp"

namespace ompp::analyses {

// One sentence per violated invariant, naming the node, region or thread;
// empty when the profile adds up.
std::vector<std::string> check_invariants(const model::Profile& profile);

}  // namespace ompp::analyses
