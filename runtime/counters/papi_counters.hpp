// papi_counters.hpp - PAPI events for OMPP_CTRn.  Built only when CMake finds
// PAPI (OMPP_HAVE_PAPI); otherwise every PAPI event name gets a clear
// "not built with PAPI" message.  On machines without hardware counters
// (this VM, most containers) PAPI loads but cannot add events: the event is
// reported once on stderr and in the report header, and profiling goes on.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ompp::counters {

// Checks on the configuring thread that PAPI can count `event` here.
// Returns an empty string if it can, else the reason.
std::string papi_check_event(const std::string& event);

// One thread's PAPI event set; created and read on that thread.
class PapiThreadCounters {
public:
    static std::unique_ptr<PapiThreadCounters> start(const std::vector<std::string>& events);
    ~PapiThreadCounters();
    PapiThreadCounters(const PapiThreadCounters&) = delete;
    PapiThreadCounters& operator=(const PapiThreadCounters&) = delete;
    // Current values, one per event, in the order given to start().
    void read(std::span<long long> values);

private:
    explicit PapiThreadCounters(int event_set) : event_set_(event_set) {}
    int event_set_;
};

}  // namespace ompp::counters
