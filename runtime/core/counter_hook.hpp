// counter_hook.hpp - THE extension point for hardware and software counters
// (runtime/counters/ implements the sources).
//
// The measurement core reads counters at every enter and exit through the
// CounterReader its thread got at birth.  With no counters configured the
// reader is null and the cost is one predictable branch per event.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>

#include "model/profile.hpp"

namespace ompp::core {

using CounterValues = std::array<std::uint64_t, model::kMaxCounters>;

// Per-thread: created on the thread it measures, used only there.
class CounterReader {
public:
    virtual ~CounterReader() = default;
    // Current values of the configured counters (unused slots: 0).
    virtual void read(CounterValues& values) = 0;
};

// Called once per measured thread, on that thread, when it is first seen.
// Returning null means "no counters on this thread".
using CounterReaderFactory = std::function<std::unique_ptr<CounterReader>()>;

}  // namespace ompp::core
