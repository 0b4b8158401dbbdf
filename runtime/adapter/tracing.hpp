// tracing.hpp - the adapter's one call per POMP2 event into the trace
// recorder: a relaxed load and a branch predicted not taken while
// OMPP_TRACE is off.
#pragma once

#include "core/measurement.hpp"
#include "core/region_registry.hpp"
#include "core/thread_state.hpp"
#include "trace/recorder.hpp"

namespace ompp::adapter {

// The record of an event known to be traced (its common case while
// recording: adapter/pomp2_api.cpp), into the buffer the thread's state
// keeps; the slow path finds the buffer by the thread's id (making it on
// the thread's first record) and the state keeps it from then on.
inline void record(core::ThreadState& thread, trace::Event event, const core::RegionRecord& region,
                   core::Ticks now, std::uint64_t value = 0) {
    if (!trace::try_record(thread.trace_buffer(), event, region.info.id, now, value)) [[unlikely]]
        thread.trace_buffer() = trace::record_slowly(thread.id(), event, region.info.id, now, value);
}

// The record of an event of a general path, if tracing: a call, which
// hands `now` back, so that the caller keeps nothing across it and the
// untraced path around it stays as small as without tracing.
inline core::Ticks traced(core::ThreadState& thread, trace::Event event, const core::RegionRecord& region,
                          core::Ticks now, std::uint64_t value = 0) {
    if (trace::recording()) [[unlikely]]
        return trace::record_out_of_line(thread.trace_buffer(), thread.id(), event, region.info.id, now, value);
    return now;
}

// The record of an event's traced form (adapter/pomp2_api.cpp), which
// runs again with Slowly when the record needs its slow path (the thread's
// first record, a full chunk: a call); without it, the form keeps nothing
// across a call and needs no stack frame.  False: nothing recorded.
template <bool Slowly>
[[gnu::always_inline]] inline bool recorded(core::ThreadState& thread, trace::Event event,
                                            const core::RegionRecord& region, core::Ticks now,
                                            std::uint64_t value = 0) {
    if constexpr (Slowly) {
        record(thread, event, region, now, value);
        return true;
    } else {
        return trace::try_record(thread.trace_buffer(), event, region.info.id, now, value);
    }
}

// The same at the clock's time, then `then(now)`; `slowly()` instead, having
// recorded nothing, if the record needs its slow path or the clock needs a
// call to be read (both need Slowly).  Continuations rather than a returned
// time, which GCC would test again after the record.
template <bool Slowly, typename Then, typename Otherwise>
[[gnu::always_inline]] inline void recorded_now(const core::Measurement& m, core::ThreadState& thread,
                                                trace::Event event, const core::RegionRecord& region,
                                                std::uint64_t value, Then then, Otherwise slowly) {
    if (!Slowly && !m.clock().reads_without_call()) [[unlikely]] return slowly();
    const core::Ticks now = Slowly ? m.now() : m.clock().read_without_call();
    if (!recorded<Slowly>(thread, event, region, now, value)) [[unlikely]] return slowly();
    return then(now);
}

}  // namespace ompp::adapter
