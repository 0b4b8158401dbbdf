// tracing.hpp - the adapter's one call per POMP2 event into the trace
// recorder: a relaxed load and a branch predicted not taken while
// OMPP_TRACE is off.
#pragma once

#include "core/region_registry.hpp"
#include "core/thread_state.hpp"
#include "trace/recorder.hpp"

namespace ompp::adapter {

inline void traced(const core::ThreadState& thread, trace::Event event, const core::RegionRecord& region,
                   core::Ticks now, std::uint64_t value = 0) {
    if (trace::recording()) [[unlikely]] trace::record(thread.id(), event, region.info.id, now, value);
}

}  // namespace ompp::adapter
