// commands.hpp - what ompp-trace does with a trace (see main.cpp).
#pragma once

#include <ostream>
#include <string>

#include "trace.hpp"

namespace ompp::trace_tool {

// Event counts per kind, per region and per thread, tasks created,
// executed and completed, and every inconsistency (unmatched Leave, task
// completed with regions open, created task never completed, ...) as JSON.
// Returns the number of inconsistencies.
std::size_t write_stats(const Trace& trace, std::ostream& out);

// Chrome/Perfetto trace-event JSON: one complete ("X") event per region
// visit, instants for forks, joins and locks, flows from task creation to
// task start.
void write_perfetto(const Trace& trace, std::ostream& out);

}  // namespace ompp::trace_tool
