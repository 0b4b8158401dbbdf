// lifecycle.hpp - the runtime's life: uninitialised -> active -> finalised.
//
// The first POMP2 event (or the library's load-time constructor, or
// POMP2_Init) starts measurement; program end (return from main, exit() from
// any thread, a signal that ends the program, POMP2_Finalize) finalises it once: the profile
// is built, analysed and written.  Events after that are no-ops.
#pragma once

#include <atomic>

#include "config/options.hpp"
#include "core/clock.hpp"
#include "core/measurement.hpp"
#include "model/profile.hpp"

namespace ompp::adapter {

// Non-null while measuring and switched on (POMP2_On/Off): the one check
// every event makes.
extern std::atomic<core::Measurement*> g_gate;
extern std::atomic<std::uint32_t> g_disabled_kinds;  // bit per model::RegionKind

core::Measurement* start_if_uninitialised();

inline core::Measurement* gate() {
    core::Measurement* measurement = g_gate.load(std::memory_order_acquire);
    if (measurement != nullptr) [[likely]] return measurement;
    return start_if_uninitialised();
}

inline bool measured(model::RegionKind kind) {
    return (g_disabled_kinds.load(std::memory_order_relaxed) >> static_cast<unsigned>(kind) & 1U) == 0;
}

void start();     // reads the environment; idempotent
void finalise();  // builds, analyses and writes the profile; idempotent
void switch_on(bool on);

// MPI_COMM_WORLD's rank and size (libompp_mpi, after MPI_Init): the
// profile's `mpi` from now on, instead of the launcher's environment.
void set_mpi_process(int rank, int size);

// The finished profile (built and analysed) without writing it.
model::Profile finished_profile(const core::Measurement& measurement, const config::Config& config);

// Tests: abandon any earlier measurement and measure afresh with `clock`.
core::Measurement& restart_for_testing(core::Clock clock, config::Config config);

}  // namespace ompp::adapter
