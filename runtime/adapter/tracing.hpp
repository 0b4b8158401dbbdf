// tracing.hpp - the adapter's one call per POMP2 event into the trace
// recorder: a relaxed load and a branch predicted not taken while
// OMPP_TRACE is off.
#pragma once

#include <optional>

#include "core/measurement.hpp"
#include "core/region_registry.hpp"
#include "core/thread_state.hpp"
#include "trace/recorder.hpp"

namespace ompp::adapter {

// The record of an event known to be traced (its common case while
// recording: adapter/pomp2_api.cpp).
inline void record(const core::ThreadState& thread, trace::Event event, const core::RegionRecord& region,
                   core::Ticks now, std::uint64_t value = 0) {
    trace::record(thread.id(), event, region.info.id, now, value);
}

inline void traced(const core::ThreadState& thread, trace::Event event, const core::RegionRecord& region,
                   core::Ticks now, std::uint64_t value = 0) {
    if (trace::recording()) [[unlikely]] record(thread, event, region, now, value);
}

// The record of an event's traced form (adapter/pomp2_api.cpp), which
// runs again with Slowly when the record needs its slow path (the thread's
// first record, a full chunk: a call); without it, the form keeps nothing
// across a call and needs no stack frame.  False: nothing recorded.
template <bool Slowly>
[[gnu::always_inline]] inline bool recorded(const core::ThreadState& thread, trace::Event event,
                                            const core::RegionRecord& region, core::Ticks now,
                                            std::uint64_t value = 0) {
    if constexpr (Slowly) {
        record(thread, event, region, now, value);
        return true;
    } else {
        return trace::try_record(thread.id(), event, region.info.id, now, value);
    }
}

// The same at the clock's time, which it returns: a clock that needs a call
// to be read needs Slowly too.
template <bool Slowly>
[[gnu::always_inline]] inline std::optional<core::Ticks> recorded_now(const core::Measurement& m,
                                                                      const core::ThreadState& thread,
                                                                      trace::Event event,
                                                                      const core::RegionRecord& region,
                                                                      std::uint64_t value = 0) {
    if (!Slowly && !m.clock().reads_without_call()) [[unlikely]] return std::nullopt;
    const core::Ticks now = Slowly ? m.now() : m.clock().read_without_call();
    if (!recorded<Slowly>(thread, event, region, now, value)) [[unlikely]] return std::nullopt;
    return now;
}

}  // namespace ompp::adapter
