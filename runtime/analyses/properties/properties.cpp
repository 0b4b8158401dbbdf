#include "analyses/properties/properties.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "analyses/profile_index.hpp"
#include "model/report_text.hpp"

namespace ompp::analyses {

using model::Node;
using model::NodeKind;
using model::RegionKind;
using model::ThreadMetrics;

namespace {

struct PropertyKind {
    std::string_view name;
    std::string_view phrase;  // starts the property's text, followed by the location
};

constexpr PropertyKind kWaitAtBarrier{"WaitAtBarrier", "Waiting at explicit barrier"};
constexpr PropertyKind kImbalanceInParallelRegion{"ImbalanceInParallelRegion", "Imbalance in parallel region"};
constexpr PropertyKind kImbalanceInParallelLoop{"ImbalanceInParallelLoop", "Imbalance in parallel loop"};
constexpr PropertyKind kImbalanceInParallelWorkshare{"ImbalanceInParallelWorkshare",
                                                     "Imbalance in parallel workshare"};
constexpr PropertyKind kImbalanceInScope{"ImbalanceInScope", "Imbalance in scope"};
constexpr PropertyKind kUnevenSections{"ImbalanceDueToUnevenSectionDistribution",
                                       "Imbalance due to uneven section distribution in"};
constexpr PropertyKind kNotEnoughSections{"ImbalanceDueToNotEnoughSections",
                                          "Imbalance due to not enough sections in"};
constexpr PropertyKind kImbalanceInParallelSections{"ImbalanceInParallelSections",
                                                    "Imbalance in parallel sections"};
constexpr PropertyKind kCriticalSectionContention{"CriticalSectionContention", "Contention for critical section"};
constexpr PropertyKind kLockContention{"LockContention", "Contention for lock"};
constexpr PropertyKind kFrequentAtomic{"FrequentAtomic", "Frequent atomic operations at"};
constexpr PropertyKind kUnparallelizedInSingle{"UnparallelizedInSingleRegion",
                                               "Unparallelized work in single region"};
constexpr PropertyKind kUnparallelizedInMaster{"UnparallelizedInMasterRegion",
                                               "Unparallelized work in master region"};
constexpr PropertyKind kInsufficientWorkInParallelLoop{"InsufficientWorkInParallelLoop",
                                                       "Insufficient work in parallel loop"};
constexpr PropertyKind kPreemption{"ThreadsPreemptedInParallelRegion",
                                   "Threads preempted (oversubscribed machine) in parallel region"};
constexpr PropertyKind kTasksTooSmall{"TasksTooSmallForCreationCost", "Tasks too small for their creation cost:"};
constexpr PropertyKind kTaskCreationConcentrated{"TaskCreationConcentratedOnFewThreads",
                                                 "Task creation concentrated on few threads:"};
constexpr PropertyKind kTaskManagementDominatesWaiting{"TaskManagementDominatesWaiting",
                                                       "Task management dominates waiting in"};

struct Finding {
    const PropertyKind* kind;
    std::optional<std::uint32_t> region;
    double d;  // thread-seconds lost
};

// A team whose threads waited this share of their sampled time for a CPU
// ran oversubscribed: its waits at barriers are the preemption's, up to the
// time the threads were preempted.  Below it (a busy machine's occasional
// preemption), waits stay imbalance: a waiter's own wake-up delay is in its
// run-queue time too, and it did not make anyone wait.
constexpr double kOversubscribedShare = 0.25;

bool is_imbalance(const PropertyKind* kind) {
    return kind == &kImbalanceInParallelRegion || kind == &kImbalanceInParallelLoop ||
           kind == &kImbalanceInParallelWorkshare || kind == &kImbalanceInScope || kind == &kUnevenSections ||
           kind == &kNotEnoughSections || kind == &kImbalanceInParallelSections;
}


class Detector {
public:
    Detector(const model::Profile& profile, const PropertyThresholds& thresholds)
        : index_(profile), thresholds_(thresholds),
          ranking_basis_(profile.wall_time_s * profile.threads) {}

    std::vector<Finding> run() {
        for (const auto& node : index_.profile().nodes) {
            if (node.kind != NodeKind::Region) continue;
            double preempted = 0, run_delay = 0, sampled = 0;
            for (const auto& m : node.threads) {
                preempted += preempted_s(m);
                run_delay += m.run_delay_s;
                sampled += m.cpu_sampled_s;
            }
            if (preempted <= 0) continue;
            add(kPreemption, node, preempted);
            if (run_delay >= kOversubscribedShare * sampled) unclaimed_preemption_[node.id] = preempted;
        }
        for (const auto& node : index_.profile().nodes) {
            if (node.kind == NodeKind::Region) {
                if (auto kind = index_.region_kind(node)) region_node(node, *kind);
            }
            if (node.kind == NodeKind::ImplicitBarrier) scheduling_point(node);
        }
        for (const auto& task : index_.profile().tasks) task_construct(task);
        return std::move(findings_);
    }

private:
    // The time one thread of a parallel region was runnable but not running
    // (the run-queue delay of its sampled bodies, scaled to all of them):
    // waiting for other threads or sleeping is not runnable, so only
    // preemption counts.
    static double preempted_s(const ThreadMetrics& m) {
        if (m.cpu_samples == 0 || m.cpu_sampled_s <= 0) return 0;
        const double body = std::max(m.cpu_sampled_s, m.inclusive_s - m.startup_s - m.shutdown_s);
        return std::min(m.run_delay_s, m.cpu_sampled_s) * body / m.cpu_sampled_s;
    }

    // Seconds a preempted thread was away show as waits at the barriers
    // of its team: the imbalance properties inside an oversubscribed
    // parallel region leave that many seconds out (in node order).
    void add(const PropertyKind& kind, const Node& node, double d) {
        if (is_imbalance(&kind) && d > 0) {
            if (const Node* parallel = index_.enclosing_parallel(node)) {
                auto unclaimed = unclaimed_preemption_.find(parallel->id);
                if (unclaimed != unclaimed_preemption_.end()) {
                    const double claimed = std::min(d, unclaimed->second);
                    unclaimed->second -= claimed;
                    d -= claimed;
                }
            }
        }
        if (d > 0) findings_.push_back({&kind, node.region, d});
    }

    // The wait in a construct's implicit barriers, net of task work, less
    // the barriers where task management dominates the waiting: those
    // seconds are that property's, and no time is diagnosed twice.
    double exit_barrier_sum(const Node& node) const {
        double total = 0;
        for (auto child_id : index_.children(node)) {
            const Node* child = index_.node(child_id);
            if (child->kind != NodeKind::ImplicitBarrier || task_management_dominates(*child)) continue;
            for (const auto& m : child->threads) total += index_.wait_time(*child, m);
        }
        return total;
    }

    void region_node(const Node& node, RegionKind kind) {
        switch (kind) {
        case RegionKind::Barrier: {
            double wait = 0;
            for (const auto& m : node.threads) wait += index_.wait_time(node, m);
            if (!task_management_dominates(node)) add(kWaitAtBarrier, node, wait);
            scheduling_point(node);
            break;
        }
        case RegionKind::Taskwait:
        case RegionKind::Taskgroup: scheduling_point(node); break;
        case RegionKind::Parallel:
        case RegionKind::ParallelMaster: add(kImbalanceInParallelRegion, node, exit_barrier_sum(node)); break;
        case RegionKind::Loop:
        case RegionKind::ParallelLoop:
            add(kImbalanceInParallelLoop, node, exit_barrier_sum(node));
            insufficient_work(node);
            break;
        case RegionKind::Workshare: add(kImbalanceInParallelWorkshare, node, exit_barrier_sum(node)); break;
        case RegionKind::Scope: add(kImbalanceInScope, node, exit_barrier_sum(node)); break;
        case RegionKind::Sections:
        case RegionKind::ParallelSections: add(sections_kind(node), node, exit_barrier_sum(node)); break;
        case RegionKind::Critical: add(kCriticalSectionContention, node, sum_over_threads(node, &ThreadMetrics::enter_s)); break;
        case RegionKind::Lock: add(kLockContention, node, sum_over_threads(node, &ThreadMetrics::enter_s)); break;
        case RegionKind::Atomic: {
            double executions = static_cast<double>(sum_over_threads(node, &ThreadMetrics::visits));
            if (ranking_basis_ > 0 && executions / ranking_basis_ > thresholds_.frequent_atomic_per_s)
                add(kFrequentAtomic, node, sum_over_threads(node, &ThreadMetrics::inclusive_s));
            break;
        }
        case RegionKind::Single: add(kUnparallelizedInSingle, node, exit_barrier_sum(node)); break;
        case RegionKind::Master:
        case RegionKind::Masked: add(kUnparallelizedInMaster, node, sum_over_threads(node, &ThreadMetrics::inclusive_s)); break;
        default: break;
        }
    }

    // ompP: sections executed unevenly by the threads (maxC − minC > 0) are
    // badly distributed if there were more sections than thread-visits, too
    // few if there were fewer.
    static const PropertyKind& sections_kind(const Node& node) {
        std::uint64_t min_count = UINT64_MAX, max_count = 0;
        for (const auto& m : node.threads) {
            min_count = std::min(min_count, m.body_count);
            max_count = std::max(max_count, m.body_count);
        }
        auto sections = sum_over_threads(node, &ThreadMetrics::body_count);
        auto visits = sum_over_threads(node, &ThreadMetrics::visits);
        if (!node.threads.empty() && max_count > min_count) {
            if (sections > visits) return kUnevenSections;
            if (sections < visits) return kNotEnoughSections;
        }
        return kImbalanceInParallelSections;
    }

    // A loop has too little work for its team when a thread's share of the
    // iterations takes less time than the fixed cost every thread pays for
    // the construct: the barrier wait of the thread that waited least (the
    // part no rebalancing removes) plus, for a parallel loop, the mean
    // fork/join time.  d = that fixed cost over the team.
    void insufficient_work(const Node& node) {
        if (node.threads.size() < 2) return;
        const double n = static_cast<double>(node.threads.size());
        double work = 0, min_wait = -1, fork_join = 0;
        for (const auto& m : node.threads) {
            double wait = index_.exit_barrier_wait(node, m.thread);
            min_wait = min_wait < 0 ? wait : std::min(min_wait, wait);
            fork_join += m.startup_s + m.shutdown_s;
            work += std::max(0.0, m.inclusive_s - index_.exit_barrier_time(node, m.thread) - m.startup_s -
                                      m.shutdown_s);
        }
        double fixed_per_thread = min_wait + fork_join / n;
        if (work / n < fixed_per_thread) add(kInsufficientWorkInParallelLoop, node, fixed_per_thread * n);
    }

    // Scheduling points where threads ran tasks many times per arrival but
    // spent more time between tasks than in them: the waiting is dominated
    // by creating, queueing and switching tasks rather than by running them.
    bool task_management_dominates(const Node& node) const {
        double task = 0, not_task = 0;
        std::uint64_t switches = 0;
        for (auto child_id : index_.children(node)) {
            const Node* child = index_.node(child_id);
            if (child->kind != NodeKind::TaskStub) continue;
            for (const auto& m : child->threads) switches += m.task_switches ? m.task_switches : m.visits;
        }
        for (const auto& m : node.threads) {
            task += index_.task_time(node, m.thread);
            not_task += index_.wait_time(node, m);
        }
        auto visits = sum_over_threads(node, &ThreadMetrics::visits);
        return switches > 0 && visits > 0 &&
               static_cast<double>(switches) >= thresholds_.task_switches_per_visit * static_cast<double>(visits) &&
               not_task > task;
    }

    void scheduling_point(const Node& node) {
        if (!task_management_dominates(node)) return;
        double not_task = 0;
        for (const auto& m : node.threads) not_task += index_.wait_time(node, m);
        add(kTaskManagementDominatesWaiting, node, not_task);
    }

    void task_construct(const model::TaskStatistics& task) {
        if (task.instances > 0 && task.creation_s > 0) {
            double creation_per_instance = task.creation_s / static_cast<double>(task.instances);
            if (task.mean_s < thresholds_.task_work_per_creation_cost * creation_per_instance)
                findings_.push_back({&kTasksTooSmall, task.region, task.creation_s});
        }
        creation_concentration(task.region);
    }

    // Few creating threads feed many executing ones: the others wait while
    // the creators create.  d = (largest per-thread creation time − the mean
    // over all participating threads) x their number, as for imbalance.
    void creation_concentration(std::uint32_t task_region) {
        std::map<std::uint32_t, double> creation_by_thread;
        std::set<std::uint32_t> participants;
        for (const auto& node : index_.profile().nodes) {
            if (node.region != task_region) continue;
            if (node.kind == NodeKind::Region) {
                for (const auto& m : node.threads)
                    if (m.visits > 0) {
                        creation_by_thread[m.thread] += index_.wait_time(node, m);
                        participants.insert(m.thread);
                    }
            } else if (node.kind == NodeKind::TaskRoot) {
                for (const auto& m : node.threads)
                    if (m.visits > 0) participants.insert(m.thread);
            }
        }
        if (participants.size() < 2 || creation_by_thread.empty()) return;
        const double n = static_cast<double>(participants.size());
        if (static_cast<double>(creation_by_thread.size()) > thresholds_.task_creator_share * n) return;
        double total = 0, largest = 0;
        for (auto [thread, t] : creation_by_thread) {
            total += t;
            largest = std::max(largest, t);
        }
        double d = (largest - total / n) * n;
        if (d > 0) findings_.push_back({&kTaskCreationConcentrated, task_region, d});
    }

    ProfileIndex index_;
    const PropertyThresholds& thresholds_;
    double ranking_basis_;
    std::vector<Finding> findings_;
    std::map<std::uint32_t, double> unclaimed_preemption_;  // by parallel node id
};

// The samples the preemption figure rests on, with their units.
std::string preemption_evidence(const model::Profile& profile, std::optional<std::uint32_t> region) {
    double sampled = 0, cpu = 0, run_delay = 0;
    std::uint64_t samples = 0;
    for (const auto& node : profile.nodes) {
        if (node.kind != NodeKind::Region || node.region != region) continue;
        for (const auto& m : node.threads) {
            samples += m.cpu_samples;
            sampled += m.cpu_sampled_s;
            cpu += m.cpu_s;
            run_delay += m.run_delay_s;
        }
    }
    return fmt::format(" ({} sampled bodies, {:.3f} s of thread time: {:.3f} s on a CPU, {:.3f} s waiting for one)",
                       samples, sampled, cpu, run_delay);
}

std::string property_text(const model::Profile& profile, const PropertyKind& kind,
                          std::optional<std::uint32_t> region, double severity_pct) {
    const auto* r = model::find_region(profile, region);
    std::string text = fmt::format("{} {}: {:.1f}% of total thread time", kind.phrase,
                                   r ? model::source_range(profile, *r) : std::string("(unknown region)"), severity_pct);
    if (&kind == &kPreemption) text += preemption_evidence(profile, region);
    return text;
}

}  // namespace

std::vector<model::Property> find_properties(const model::Profile& profile, const PropertyThresholds& thresholds) {
    const double ranking_basis = profile.wall_time_s * profile.threads;
    if (ranking_basis <= 0) return {};
    // A region reached on several call paths yields one property per kind.
    std::map<std::pair<const PropertyKind*, std::optional<std::uint32_t>>, double> d_by_property;
    for (const auto& finding : Detector(profile, thresholds).run())
        d_by_property[{finding.kind, finding.region}] += finding.d;

    std::vector<model::Property> properties;
    for (const auto& [key, d] : d_by_property) {
        double severity_pct = 100.0 * d / ranking_basis;
        if (severity_pct < thresholds.min_severity_pct) continue;
        properties.push_back({std::string(key.first->name), key.second, severity_pct,
                              property_text(profile, *key.first, key.second, severity_pct)});
    }
    std::stable_sort(properties.begin(), properties.end(),
                     [](const auto& a, const auto& b) { return a.severity_pct > b.severity_pct; });
    return properties;
}

void append_properties_report(std::string& out, const model::Profile& profile) {
    auto it = std::back_inserter(out);
    model::append_section_header(out, "ompP Performance Properties Report");
    if (profile.properties.empty()) fmt::format_to(it, "No performance property holds.\n");
    std::uint32_t number = 0;
    for (const auto& property : profile.properties) {
        const auto* r = model::find_region(profile, property.region);
        fmt::format_to(it, "Property P{:05} '{}' holds for\n     '{}', with a severity (in percent) of {:.4f}\n",
                       ++number, property.name, r ? model::region_context(profile, *r) : std::string("(program)"),
                       property.severity_pct);
    }
    out += '\n';
}

}  // namespace ompp::analyses
