// counters.hpp - OMPP_CTR1..OMPP_CTR4: which events each names, where they
// come from (software events first, then PAPI), and the per-thread reader the
// measurement core calls at every enter and exit (core/counter_hook.hpp).
//
// Counters are compacted: the n-th configured and usable event is value slot
// n of every node's counters, and Profile::counters[n] names it.  An event
// that cannot be counted costs one stderr line and one report-header line;
// measurement goes on without it.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/counter_hook.hpp"
#include "model/profile.hpp"

namespace ompp::counters {

struct CounterSetup {
    std::vector<model::CounterInfo> counters;  // usable events, in slot order
    std::vector<std::string> errors;           // "OMPP_CTR2=PAPI_TOT_INS: ..." one per unusable event
    core::CounterReaderFactory factory;        // empty when no event is usable
};

// requested[i] is the value of OMPP_CTR<i+1> ("" when unset).
CounterSetup configure_counters(const std::array<std::string, model::kMaxCounters>& requested);

}  // namespace ompp::counters
