#include "model/names.hpp"

namespace ompp::model {
namespace {

struct KindNames {
    std::string_view json;
    std::string_view report;
};

KindNames names_of(RegionKind kind) {
    switch (kind) {
    case RegionKind::Parallel: return {"PARALLEL", "PARALLEL"};
    case RegionKind::ParallelLoop: return {"PARALLEL_LOOP", "PARALLEL LOOP"};
    case RegionKind::ParallelSections: return {"PARALLEL_SECTIONS", "PARALLEL SECTIONS"};
    case RegionKind::ParallelMaster: return {"PARALLEL_MASTER", "PARALLEL MASTER"};
    case RegionKind::Loop: return {"LOOP", "LOOP"};
    case RegionKind::Sections: return {"SECTIONS", "SECTIONS"};
    case RegionKind::Section: return {"SECTION", "SECTION"};
    case RegionKind::Single: return {"SINGLE", "SINGLE"};
    case RegionKind::Master: return {"MASTER", "MASTER"};
    case RegionKind::Masked: return {"MASKED", "MASKED"};
    case RegionKind::Critical: return {"CRITICAL", "CRITICAL"};
    case RegionKind::Atomic: return {"ATOMIC", "ATOMIC"};
    case RegionKind::Flush: return {"FLUSH", "FLUSH"};
    case RegionKind::Barrier: return {"BARRIER", "BARRIER"};
    case RegionKind::Ordered: return {"ORDERED", "ORDERED"};
    case RegionKind::Task: return {"TASK", "TASK"};
    case RegionKind::Taskwait: return {"TASKWAIT", "TASKWAIT"};
    case RegionKind::Taskgroup: return {"TASKGROUP", "TASKGROUP"};
    case RegionKind::Taskloop: return {"TASKLOOP", "TASKLOOP"};
    case RegionKind::Taskyield: return {"TASKYIELD", "TASKYIELD"};
    case RegionKind::Scope: return {"SCOPE", "SCOPE"};
    case RegionKind::Workshare: return {"WORKSHARE", "WORKSHARE"};
    case RegionKind::Cancel: return {"CANCEL", "CANCEL"};
    case RegionKind::CancellationPoint: return {"CANCELLATION_POINT", "CANCELLATION POINT"};
    case RegionKind::Lock: return {"LOCK", "LOCK"};
    case RegionKind::UserRegion: return {"USER_REGION", "USER REGION"};
    }
    return {"UNKNOWN", "UNKNOWN"};
}

}  // namespace

std::string_view to_string(RegionKind kind) { return names_of(kind).json; }
std::string_view report_name(RegionKind kind) { return names_of(kind).report; }

std::string_view to_string(NodeKind kind) {
    switch (kind) {
    case NodeKind::Root: return "root";
    case NodeKind::Region: return "region";
    case NodeKind::ImplicitBarrier: return "implicit_barrier";
    case NodeKind::TaskRoot: return "task_root";
    case NodeKind::TaskStub: return "task_stub";
    }
    return "unknown";
}

}  // namespace ompp::model
