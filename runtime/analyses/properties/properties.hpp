// properties.hpp - ompP's performance properties: named inefficiency
// situations, each with a severity = d / (duration x threads), reported most
// severe first.  ompP's list (ompp_properties.c) plus the property ompP
// declared but never produced (InsufficientWorkInParallelLoop) and three task
// properties from the Score-P task-profiling paper.  Criteria and the formula
// for d of every property: docs/analyses.md.
#pragma once

#include <string>
#include <vector>

#include "model/profile.hpp"

namespace ompp::analyses {

struct PropertyThresholds {
    // FrequentAtomic: atomic executions per second of total thread time.
    double frequent_atomic_per_s = 1000;
    // TasksTooSmallForCreationCost: mean execution time per instance below
    // this multiple of the creation time per instance.
    double task_work_per_creation_cost = 10;
    // TaskCreationConcentratedOnFewThreads: at most this share of the
    // threads that ran instances created them.
    double task_creator_share = 0.5;
    // TaskManagementDominatesWaiting: at least this many task switches per
    // thread arrival at the scheduling point.
    double task_switches_per_visit = 2;
    // Properties below this severity (percent) are not reported.
    double min_severity_pct = 0.01;
};

std::vector<model::Property> find_properties(const model::Profile& profile,
                                             const PropertyThresholds& thresholds = {});

// "ompP Performance Properties Report" text section.
void append_properties_report(std::string& out, const model::Profile& profile);

}  // namespace ompp::analyses
