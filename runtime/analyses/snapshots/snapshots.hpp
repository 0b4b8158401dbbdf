// snapshots.hpp - continuous profiling: cumulative snapshots of the profile
// taken while the application runs (ompP's incremental profiling, Fürlinger &
// Moore, without its signal handler).
//
// A background thread wakes every OMPP_SNAPSHOT_INTERVAL seconds of wall
// clock time, builds a profile from the live per-thread trees through the
// core's concurrent-safe read-only traversal (relaxed atomic metrics, acquire
// loads of the append-only lists) and keeps a summary of it: per region
// visits, exclusive time and counters, and the program's overhead classes.
// POMP2_USER_Snapshot(label) adds one on demand from any thread.  Nothing
// happens in a signal handler and the measured threads never wait for it.
//
// Memory is bounded: at most `capacity` snapshots are kept.  When a new
// snapshot finds the store full, every other unlabelled snapshot is dropped
// (the first one stays) and the interval doubles, so the kept ones stay
// evenly spaced over the whole run; labelled (user) snapshots are never
// thinned, and a user snapshot that finds the store full of labelled ones
// is dropped and counted.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "model/profile.hpp"

namespace ompp::snapshots {

// The summary of one cumulative profile.
model::Snapshot summarize(const model::Profile& profile, double time_s, std::optional<std::string> label);

class SnapshotStore {
public:
    explicit SnapshotStore(std::size_t capacity);

    // Adds a snapshot (snapshots arrive in time order).  Returns true if the
    // store had to thin out its periodic snapshots to make room.
    bool add(model::Snapshot snapshot);
    std::vector<model::Snapshot> contents() const;
    std::size_t thinnings() const;
    std::size_t dropped() const;

private:
    mutable std::mutex mutex_;
    std::size_t capacity_;
    std::vector<model::Snapshot> snapshots_;
    std::size_t thinnings_ = 0;
    std::size_t dropped_ = 0;
};

struct SnapshotSettings {
    double interval_s = 0;       // 0: no periodic snapshots
    std::size_t capacity = 256;  // OMPP_SNAPSHOT_LIMIT
};

class SnapshotTaker {
public:
    using ProfileSource = std::function<model::Profile()>;  // cumulative, safe while threads measure
    using ElapsedSeconds = std::function<double()>;         // since measurement start

    SnapshotTaker(ProfileSource source, ElapsedSeconds elapsed, SnapshotSettings settings);
    ~SnapshotTaker();
    SnapshotTaker(const SnapshotTaker&) = delete;
    SnapshotTaker& operator=(const SnapshotTaker&) = delete;

    // Starts the periodic thread if an interval is set.
    void start();
    // Stops it (idempotent); no snapshot is taken after stop() returns.
    void stop();
    // One snapshot now, on the calling thread.
    void take(std::optional<std::string> label);

    std::vector<model::Snapshot> snapshots() const { return store_.contents(); }
    double interval_s() const;  // the current, possibly doubled, interval
    std::size_t thinnings() const { return store_.thinnings(); }
    std::size_t dropped() const { return store_.dropped(); }

private:
    void run();

    ProfileSource source_;
    ElapsedSeconds elapsed_;
    SnapshotStore store_;
    mutable std::mutex mutex_;  // guards interval_s_, stopping_; serialises take()
    std::mutex take_mutex_;
    std::condition_variable wake_;
    double interval_s_;
    bool stopping_ = false;
    std::thread thread_;
};

// "ompP Snapshots" text section: one row per snapshot.
void append_snapshot_report(std::string& out, const model::Profile& profile);

}  // namespace ompp::snapshots
