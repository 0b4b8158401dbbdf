// Counter configuration and the software counter sources on this thread.
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <time.h>

#include <cstring>

#include "counters/counters.hpp"
#include "counters/software_counters.hpp"

using namespace ompp;

namespace {

void spin_for_cpu_ms(int ms) {
    timespec start{}, now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    volatile double x = 0;
    do {
        for (int i = 0; i < 1000; ++i) x = x + 1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

}  // namespace

TEST_CASE("software event names and aliases", "[counters]") {
    CHECK(counters::find_software_event("cpu_time") == counters::SoftwareEvent::CpuTime);
    CHECK(counters::find_software_event("thread_cputime") == counters::SoftwareEvent::CpuTime);
    CHECK(counters::find_software_event("ctx_switches") == counters::SoftwareEvent::ContextSwitches);
    CHECK_FALSE(counters::find_software_event("PAPI_TOT_INS"));
}

TEST_CASE("configured software counters are compacted and read on the calling thread", "[counters]") {
    auto setup = counters::configure_counters({"", "cpu_time", "", "minor_faults"});
    CHECK(setup.errors.empty());
    REQUIRE(setup.counters.size() == 2);
    CHECK(setup.counters[0].name == "cpu_time");
    CHECK(setup.counters[0].source == "software");
    CHECK(setup.counters[1].name == "minor_faults");
    REQUIRE(setup.factory);
    auto reader = setup.factory();
    REQUIRE(reader);

    core::CounterValues before{}, after{};
    reader->read(before);
    spin_for_cpu_ms(20);
    const std::size_t bytes = 4u << 20;
    void* block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(block != MAP_FAILED);
    std::memset(block, 1, bytes);  // 1024 fresh pages
    reader->read(after);
    munmap(block, bytes);

    CHECK(after[0] - before[0] >= 15'000'000u);  // ns of CPU time
    CHECK(after[1] - before[1] >= 500u);         // minor faults
    CHECK(after[2] == 0);
    CHECK(after[3] == 0);
}

TEST_CASE("unknown and uncountable events give one line each and are left out", "[counters]") {
    auto setup = counters::configure_counters({"no_such_event", "", "", ""});
    CHECK(setup.counters.empty());
    CHECK_FALSE(setup.factory);
    REQUIRE(setup.errors.size() == 1);
    CHECK(setup.errors[0].rfind("OMPP_CTR1=no_such_event: ", 0) == 0);
    CHECK(setup.errors[0].find("cpu_time") != std::string::npos);

    // No hardware counters on this machine (and in most containers): PAPI
    // events are reported, never fatal.  Where PAPI can count, they work.
    auto papi = counters::configure_counters({"PAPI_TOT_INS", "cpu_time", "", ""});
    REQUIRE(papi.counters.size() + papi.errors.size() == 2);
    if (!papi.errors.empty()) {
        CHECK(papi.errors[0].rfind("OMPP_CTR1=PAPI_TOT_INS: ", 0) == 0);
        CHECK(papi.counters[0].name == "cpu_time");
    }
}
