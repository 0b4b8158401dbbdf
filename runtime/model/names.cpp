#include "model/names.hpp"

namespace ompp::model {
namespace {

struct KindNames {
    std::string_view json;
    std::string_view report;
};

KindNames names_of(RegionKind kind) {
    switch (kind) {
#define OMPP_REGION_KIND(Kind, JsonName, ReportName) \
    case RegionKind::Kind: return {JsonName, ReportName};
#include <pomp2/ompp_regions.def>
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
