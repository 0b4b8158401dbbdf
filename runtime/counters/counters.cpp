#include "counters/counters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "counters/software_counters.hpp"
#ifdef OMPP_HAVE_PAPI
#include "counters/papi_counters.hpp"
#endif

namespace ompp::counters {

namespace {

struct Slot {
    std::optional<SoftwareEvent> software;  // else: papi_index
    std::size_t papi_index = 0;
};

class Reader final : public core::CounterReader {
public:
    Reader(std::vector<Slot> slots, const std::vector<std::string>& papi_events) : slots_(std::move(slots)) {
        for (const auto& slot : slots_) {
            if (!slot.software) continue;
            (needs_rusage(*slot.software) ? needs_rusage_ : needs_cpu_time_) = true;
        }
#ifdef OMPP_HAVE_PAPI
        if (!papi_events.empty()) papi_ = PapiThreadCounters::start(papi_events);
        papi_values_.resize(papi_events.size());
#else
        (void)papi_events;
#endif
    }

    void read(core::CounterValues& values) override {
        SoftwareSample sample(needs_cpu_time_, needs_rusage_);
#ifdef OMPP_HAVE_PAPI
        if (papi_) papi_->read(papi_values_);
#endif
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i >= slots_.size()) {
                values[i] = 0;
            } else if (slots_[i].software) {
                values[i] = sample.value(*slots_[i].software);
            } else {
                values[i] = papi_value(slots_[i].papi_index);
            }
        }
    }

private:
    std::uint64_t papi_value(std::size_t index) const {
#ifdef OMPP_HAVE_PAPI
        if (papi_ && index < papi_values_.size() && papi_values_[index] > 0)
            return static_cast<std::uint64_t>(papi_values_[index]);
#else
        (void)index;
#endif
        return 0;
    }

    std::vector<Slot> slots_;
    bool needs_cpu_time_ = false, needs_rusage_ = false;
#ifdef OMPP_HAVE_PAPI
    std::unique_ptr<PapiThreadCounters> papi_;
    std::vector<long long> papi_values_;
#endif
};

std::string software_event_list() {
    std::string list;
    for (const auto& entry : software_event_names()) list += (list.empty() ? "" : ", ") + std::string(entry.name);
    return list;
}

}  // namespace

CounterSetup configure_counters(const std::array<std::string, model::kMaxCounters>& requested) {
    CounterSetup setup;
    std::vector<Slot> slots;
    std::vector<std::string> papi_events;
    for (std::size_t i = 0; i < requested.size(); ++i) {
        const std::string& name = requested[i];
        if (name.empty()) continue;
        const std::string variable = fmt::format("OMPP_CTR{}", i + 1);
        if (auto event = find_software_event(name)) {
            slots.push_back({event, 0});
            setup.counters.push_back({name, "software"});
            continue;
        }
#ifdef OMPP_HAVE_PAPI
        if (std::string problem = papi_check_event(name); !problem.empty()) {
            setup.errors.push_back(fmt::format("{}={}: {}; this counter is off (software events: {})", variable, name,
                                               problem, software_event_list()));
            continue;
        }
        slots.push_back({std::nullopt, papi_events.size()});
        papi_events.push_back(name);
        setup.counters.push_back({name, "papi"});
#else
        setup.errors.push_back(fmt::format("{}={}: not a software event and ompp was built without PAPI; this "
                                           "counter is off (software events: {})",
                                           variable, name, software_event_list()));
#endif
    }
    if (!slots.empty()) {
        setup.factory = [slots, papi_events]() -> std::unique_ptr<core::CounterReader> {
            return std::make_unique<Reader>(slots, papi_events);
        };
    }
    return setup;
}

}  // namespace ompp::counters
