#include "analyses/analyses_step.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <mutex>

#include "analyses/control_flow/control_flow.hpp"
#include "analyses/invariants/invariants.hpp"
#include "analyses/overheads/overheads.hpp"
#include "analyses/overheads/overheads_report.hpp"
#include "analyses/properties/properties.hpp"
#include "analyses/summary/summary.hpp"
#include "counters/counters.hpp"
#include "analyses/snapshots/snapshots.hpp"

namespace ompp::analyses {

namespace {

// What the analyses keep for one measurement: its counter configuration and
// the snapshot taker reading its trees.
struct Session {
    core::Measurement* measurement = nullptr;
    counters::CounterSetup counters;
    std::unique_ptr<snapshots::SnapshotTaker> snapshots;
};

std::mutex g_session_mutex;
std::unique_ptr<Session> g_session;  // guarded by g_session_mutex

// OMPP_SNAPSHOT_INTERVAL, or ompP's OMPP_DUMP_INTERVAL when only that is set.
snapshots::SnapshotSettings snapshot_settings(const config::Config& config) {
    snapshots::SnapshotSettings settings;
    const char* variable = "OMPP_SNAPSHOT_INTERVAL";
    if (!config.is_set(variable) && config.is_set("OMPP_DUMP_INTERVAL")) variable = "OMPP_DUMP_INTERVAL";
    double interval = config.real(variable);
    constexpr double kMinSnapshotInterval = 0.01;  // below this a snapshot thread would hardly sleep
    if (interval > 0 && interval < kMinSnapshotInterval) {
        std::fprintf(stderr, "ompp: %s=%g is below the smallest interval, %g s; no periodic snapshots are taken\n",
                     variable, interval, kMinSnapshotInterval);
        interval = 0;
    }
    settings.interval_s = interval;
    settings.capacity = static_cast<std::size_t>(config.integer("OMPP_SNAPSHOT_LIMIT"));
    return settings;
}

std::array<std::string, model::kMaxCounters> requested_counters(const config::Config& config) {
    std::array<std::string, model::kMaxCounters> requested;
    for (std::size_t i = 0; i < requested.size(); ++i) requested[i] = config.text(fmt::format("OMPP_CTR{}", i + 1));
    return requested;
}

}  // namespace

void on_measurement_start(core::Measurement& measurement, const config::Config& config) {
    auto session = std::make_unique<Session>();
    session->measurement = &measurement;
    session->counters = counters::configure_counters(requested_counters(config));
    for (const auto& error : session->counters.errors) std::fprintf(stderr, "ompp: %s\n", error.c_str());
    if (session->counters.factory) measurement.set_counter_reader_factory(session->counters.factory);

    core::Measurement* measured = &measurement;
    session->snapshots = std::make_unique<snapshots::SnapshotTaker>(
        [measured] { return measured->build_profile(); },
        [measured] { return measured->clock().to_seconds(measured->now() - measured->start()); },
        snapshot_settings(config));
    session->snapshots->start();

    std::unique_ptr<Session> previous;
    {
        std::lock_guard lock(g_session_mutex);
        previous = std::exchange(g_session, std::move(session));
    }
    if (previous && previous->snapshots) previous->snapshots->stop();
}

void on_user_snapshot(core::Measurement& measurement, std::string_view label) {
    std::lock_guard lock(g_session_mutex);
    if (g_session && g_session->measurement == &measurement && g_session->snapshots)
        g_session->snapshots->take(std::string(label));
}

void run_analyses(model::Profile& profile, const config::Config&) {
    {
        std::lock_guard lock(g_session_mutex);
        if (g_session) {
            profile.counters = g_session->counters.counters;
            profile.counter_errors = g_session->counters.errors;
            if (g_session->snapshots) {
                g_session->snapshots->stop();
                profile.snapshots = g_session->snapshots->snapshots();
                if (auto dropped = g_session->snapshots->dropped())
                    profile.warnings.push_back({fmt::format("{} labelled snapshot(s) dropped: OMPP_SNAPSHOT_LIMIT "
                                                            "reached with labelled snapshots only",
                                                            dropped),
                                                std::nullopt, dropped});
            }
        }
    }
    profile.overheads = compute_overheads(profile);
    profile.properties = find_properties(profile);
    // An on-demand dump reads trees the threads are still writing.
    if (profile.final_report) profile.invariant_violations = check_invariants(profile);
}

model::AnalysesText text_sections(const model::Profile& profile) {
    model::AnalysesText text;
    append_summary(text.summary, profile);
    std::string& out = text.sections;
    append_overhead_report(out, profile);
    append_properties_report(out, profile);
    append_control_flow_report(out, profile);
    snapshots::append_snapshot_report(out, profile);
    return text;
}

}  // namespace ompp::analyses
