#include "counters/papi_counters.hpp"

#include <fmt/format.h>
#include <papi.h>
#include <pthread.h>

namespace ompp::counters {

namespace {

// PAPI_library_init and PAPI_thread_init must run once per process.
int papi_init_status() {
    static const int status = [] {
        int version = PAPI_library_init(PAPI_VER_CURRENT);
        if (version != PAPI_VER_CURRENT) return version < 0 ? version : PAPI_EINVAL;
        return PAPI_thread_init([]() -> unsigned long { return static_cast<unsigned long>(pthread_self()); });
    }();
    return status;
}

std::string papi_error(int code) {
    const char* text = PAPI_strerror(code);
    return text ? text : fmt::format("PAPI error {}", code);
}

}  // namespace

std::string papi_check_event(const std::string& event) {
    if (int status = papi_init_status(); status != PAPI_OK)
        return fmt::format("PAPI initialisation failed ({})", papi_error(status));
    int code = 0;
    if (int status = PAPI_event_name_to_code(event.c_str(), &code); status != PAPI_OK)
        return fmt::format("unknown to PAPI ({})", papi_error(status));
    int event_set = PAPI_NULL;
    if (int status = PAPI_create_eventset(&event_set); status != PAPI_OK)
        return fmt::format("PAPI cannot create an event set ({})", papi_error(status));
    int status = PAPI_add_event(event_set, code);
    PAPI_cleanup_eventset(event_set);
    PAPI_destroy_eventset(&event_set);
    if (status != PAPI_OK) {
        if (PAPI_num_hwctrs() <= 0)
            return fmt::format("no hardware counters available on this machine ({})", papi_error(status));
        return fmt::format("PAPI cannot count it here ({})", papi_error(status));
    }
    return {};
}

std::unique_ptr<PapiThreadCounters> PapiThreadCounters::start(const std::vector<std::string>& events) {
    if (papi_init_status() != PAPI_OK) return nullptr;
    PAPI_register_thread();
    int event_set = PAPI_NULL;
    if (PAPI_create_eventset(&event_set) != PAPI_OK) return nullptr;
    for (const auto& event : events) {
        int code = 0;
        if (PAPI_event_name_to_code(event.c_str(), &code) != PAPI_OK || PAPI_add_event(event_set, code) != PAPI_OK) {
            PAPI_cleanup_eventset(event_set);
            PAPI_destroy_eventset(&event_set);
            return nullptr;
        }
    }
    if (PAPI_start(event_set) != PAPI_OK) {
        PAPI_cleanup_eventset(event_set);
        PAPI_destroy_eventset(&event_set);
        return nullptr;
    }
    return std::unique_ptr<PapiThreadCounters>(new PapiThreadCounters(event_set));
}

// The owner may be destroyed after its thread ended; PAPI then merely
// reports errors, which there is no one left to tell.
PapiThreadCounters::~PapiThreadCounters() {
    long long ignored[PAPI_MAX_HWCTRS];
    PAPI_stop(event_set_, ignored);
    PAPI_cleanup_eventset(event_set_);
    PAPI_destroy_eventset(&event_set_);
}

void PapiThreadCounters::read(std::span<long long> values) {
    if (PAPI_read(event_set_, values.data()) != PAPI_OK)
        for (auto& v : values) v = 0;
}

}  // namespace ompp::counters
