// event_stream.hpp - helpers for driving the measurement core with synthetic
// event streams on a manual clock (one tick = one nanosecond).
#pragma once

#include <atomic>
#include <string>

#include "core/measurement.hpp"
#include "core/region_registry.hpp"
#include "model/profile.hpp"

namespace ompp::test {

// A region registered from an OPARI2-style CTC string.  Each call gets a
// fresh handle, so equal strings exercise interning.
inline const core::RegionRecord& region(const std::string& type, int line, const std::string& extra = "") {
    void* handle = nullptr;
    const std::string body = "*regionType=" + type + "*sscl=stream.c:" + std::to_string(line) + ":" +
                             std::to_string(line) + "*escl=stream.c:" + std::to_string(line + 5) + ":" +
                             std::to_string(line + 5) + "*" + extra + "*";
    const std::string ctc = std::to_string(body.size()) + body;
    return core::RegionRegistry::instance().register_handle(&handle, ctc.c_str(), model::RegionKind::UserRegion);
}

struct ManualClock {
    std::atomic<core::Ticks> ticks{1000};
    core::Ticks at(core::Ticks t) {
        ticks.store(t);
        return t;
    }
    core::Clock clock() const { return core::Clock::manual(&ticks); }
};

// Lookups in a finished profile.
inline const model::Node* find_child(const model::Profile& p, std::uint32_t parent, model::NodeKind kind,
                                     std::uint32_t region) {
    for (const auto& node : p.nodes) {
        if (node.parent == parent && node.kind == kind && node.region == region) return &node;
    }
    return nullptr;
}

inline const model::ThreadMetrics* thread_of(const model::Node& node, std::uint32_t thread) {
    for (const auto& m : node.threads) {
        if (m.thread == thread) return &m;
    }
    return nullptr;
}

inline double sum_visits(const model::Node& node) {
    double total = 0;
    for (const auto& m : node.threads) total += static_cast<double>(m.visits);
    return total;
}

}  // namespace ompp::test
