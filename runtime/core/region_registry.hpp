// region_registry.hpp - every instrumented construct the process has seen,
// one record per source construct.
//
// Handles are registered eagerly (POMP2_Assign_handle, possibly from static
// constructors that run before the runtime is initialised, hence the
// self-initialising singleton) or lazily from the CTC string of a first event,
// possibly by two threads at once: handle slots are only touched with
// acquire/release atomics, and regions are interned by CTC content so that a
// construct registered from several translation units is one region.
// Records live as long as the process and never change once published.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/profile.hpp"

namespace ompp::core {

struct RegionRecord {
    model::Region info;
    bool untied = false;
};

class RegionRegistry {
public:
    static RegionRegistry& instance();

    // The region a handle stands for, registering it from `ctc` (or, without
    // one, as an unknown construct of `fallback` kind) on first use.
    const RegionRecord& resolve(void** handle, const char* ctc, model::RegionKind fallback) {
        if (handle != nullptr) {
            if (const auto* known = static_cast<const RegionRecord*>(__atomic_load_n(handle, __ATOMIC_ACQUIRE)))
                [[likely]] {
                return *known;
            }
        }
        return register_handle(handle, ctc, fallback);
    }
    const RegionRecord& register_handle(void** handle, const char* ctc, model::RegionKind fallback);

    // Regions without a CTC string: named user regions (one per begin site)
    // and locks (one per lock object).
    const RegionRecord& named(model::RegionKind kind, std::string_view name, std::string_view file, int line);
    const RegionRecord& lock(const void* lock_address);

    std::vector<model::Region> regions() const;
    // Problems met while registering (unparseable CTC strings), for the profile.
    std::vector<std::string> problems() const;

private:
    RegionRegistry() = default;
    const RegionRecord& intern(std::string key, const model::Region& info, bool untied);

    mutable std::mutex mutex_;
    std::deque<RegionRecord> records_;  // stable addresses
    std::unordered_map<std::string, const RegionRecord*> by_key_;
    std::vector<std::string> problems_;
};

}  // namespace ompp::core
