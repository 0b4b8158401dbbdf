// otf2_archive.hpp - the recorded events (recorder.hpp) as an OTF2 archive,
// following Score-P's mapping of OpenMP (docs/tracing.md): Enter/Leave of
// region definitions with file:line and OTF2 region roles, ThreadFork/Join,
// ThreadTeamBegin/End, ThreadAcquireLock/ReleaseLock, ThreadTaskCreate/
// Switch/Complete.  Runs once, at program end, after recording stopped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/profile.hpp"

namespace ompp::trace {

struct ArchiveRequest {
    std::string path;                   // the archive directory, created; must not exist
    std::vector<model::Region> regions;  // every region, any order (by id)
    double seconds_per_tick = 1e-9;
    std::uint64_t start = 0;  // ticks: the measurement's start and end
    std::uint64_t end = 0;
    std::string application;
};

struct ArchiveResult {
    std::uint64_t events = 0;  // OTF2 events written
    std::uint64_t records = 0;  // recorded events they came from
    std::string error;         // empty: written
};

ArchiveResult write_otf2(const ArchiveRequest& request);

}  // namespace ompp::trace
