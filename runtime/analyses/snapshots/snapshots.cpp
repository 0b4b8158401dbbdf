#include "analyses/snapshots/snapshots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "analyses/overheads/overheads.hpp"
#include "model/report_text.hpp"

namespace ompp::snapshots {

using model::NodeKind;

model::Snapshot summarize(const model::Profile& profile, double time_s, std::optional<std::string> label) {
    model::Snapshot snapshot;
    snapshot.time_s = time_s;
    snapshot.label = std::move(label);
    std::map<std::uint32_t, model::SnapshotRegion> by_region;
    for (const auto& node : profile.nodes) {
        // A task stub's time is already in its task tree; an implicit
        // barrier belongs to its construct but is no visit of it.
        if (!node.region || node.kind == NodeKind::TaskStub) continue;
        auto& region = by_region[*node.region];
        region.region = *node.region;
        for (const auto& m : node.threads) {
            if (node.kind != NodeKind::ImplicitBarrier) region.visits += m.visits;
            region.exclusive_s += m.exclusive_s;
            for (std::size_t c = 0; c < model::kMaxCounters; ++c)
                region.counters_exclusive[c] += m.counters_exclusive[c];
        }
    }
    for (auto& [id, region] : by_region) snapshot.regions.push_back(region);
    snapshot.overheads = analyses::compute_overheads(profile).program;
    return snapshot;
}

SnapshotStore::SnapshotStore(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 2)) {}

bool SnapshotStore::add(model::Snapshot snapshot) {
    std::lock_guard lock(mutex_);
    bool thinned = false;
    if (snapshots_.size() >= capacity_) {
        // Keep the first periodic snapshot, drop every second one after it.
        std::vector<model::Snapshot> kept;
        std::size_t periodic = 0;
        for (auto& s : snapshots_)
            if (s.label || periodic++ % 2 == 0) kept.push_back(std::move(s));
        snapshots_ = std::move(kept);
        thinned = true;
        ++thinnings_;
    }
    if (snapshots_.size() >= capacity_) {
        ++dropped_;
        return thinned;
    }
    snapshots_.push_back(std::move(snapshot));
    return thinned;
}

std::vector<model::Snapshot> SnapshotStore::contents() const {
    std::lock_guard lock(mutex_);
    return snapshots_;
}

std::size_t SnapshotStore::thinnings() const {
    std::lock_guard lock(mutex_);
    return thinnings_;
}

std::size_t SnapshotStore::dropped() const {
    std::lock_guard lock(mutex_);
    return dropped_;
}

SnapshotTaker::SnapshotTaker(ProfileSource source, ElapsedSeconds elapsed, SnapshotSettings settings)
    : source_(std::move(source)), elapsed_(std::move(elapsed)), store_(settings.capacity),
      interval_s_(settings.interval_s) {}

SnapshotTaker::~SnapshotTaker() { stop(); }

void SnapshotTaker::start() {
    std::lock_guard lock(mutex_);
    if (interval_s_ <= 0 || thread_.joinable() || stopping_) return;
    thread_ = std::thread([this] { run(); });
}

void SnapshotTaker::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
    std::lock_guard serialise(take_mutex_);  // waits for a snapshot in progress
}

double SnapshotTaker::interval_s() const {
    std::lock_guard lock(mutex_);
    return interval_s_;
}

void SnapshotTaker::take(std::optional<std::string> label) {
    std::lock_guard serialise(take_mutex_);
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
    }
    // Times are read under the serialising lock, so stored snapshots stay in
    // time order whichever thread takes them.
    model::Profile profile = source_();
    double now = elapsed_();
    if (store_.add(summarize(profile, now, std::move(label)))) {
        std::lock_guard lock(mutex_);
        interval_s_ *= 2;
    }
}

void SnapshotTaker::run() {
    using Clock = std::chrono::steady_clock;
    auto next = Clock::now();
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            next += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval_s_));
            if (wake_.wait_until(lock, next, [this] { return stopping_; })) return;
        }
        take(std::nullopt);
        // A snapshot that took longer than the interval does not queue up
        // catch-up snapshots.
        next = std::max(next, Clock::now() - std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(interval_s())));
    }
}

void append_snapshot_report(std::string& out, const model::Profile& profile) {
    if (profile.snapshots.empty()) return;
    auto it = std::back_inserter(out);
    model::append_section_header(out, "ompP Snapshots");
    fmt::format_to(it, "{} snapshots, cumulative since the start; 'busiest' = region with the most exclusive time\n"
                       "added since the previous snapshot.\n",
                   profile.snapshots.size());
    fmt::format_to(it, "{:>4} {:>9}  {:<16} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9}", "#", "time[s]", "label", "visits",
                   "excl[s]", "Synch", "Imbal", "Limpar", "Mgmt");
    for (const auto& counter : profile.counters) fmt::format_to(it, " {:>16}", counter.name);
    fmt::format_to(it, "  busiest\n");

    std::map<std::uint32_t, double> previous_exclusive;
    std::size_t number = 0;
    for (const auto& s : profile.snapshots) {
        std::uint64_t visits = 0;
        double exclusive = 0;
        std::array<double, model::kMaxCounters> counters{};
        std::optional<std::uint32_t> busiest;
        double busiest_delta = 0.0005;  // below what the table shows: no busiest region
        for (const auto& r : s.regions) {
            visits += r.visits;
            exclusive += r.exclusive_s;
            for (std::size_t c = 0; c < counters.size(); ++c) counters[c] += r.counters_exclusive[c];
            double delta = r.exclusive_s - previous_exclusive[r.region];
            if (delta > busiest_delta) busiest = r.region, busiest_delta = delta;
            previous_exclusive[r.region] = r.exclusive_s;
        }
        fmt::format_to(it, "{:>4} {:>9.3f}  {:<16} {:>10} {:>10.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f}", ++number,
                       s.time_s, s.label.value_or(""), visits, exclusive, s.overheads.synchronization_s,
                       s.overheads.imbalance_s, s.overheads.limited_parallelism_s, s.overheads.thread_management_s);
        for (std::size_t c = 0; c < profile.counters.size() && c < counters.size(); ++c)
            fmt::format_to(it, " {:>16.0f}", counters[c]);
        if (busiest) fmt::format_to(it, "  {} (+{:.3f} s)", model::region_number(*busiest), busiest_delta);
        out += '\n';
    }
    out += '\n';
}

}  // namespace ompp::snapshots
