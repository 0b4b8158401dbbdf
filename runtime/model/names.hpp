// names.hpp - the spellings of model enums shared by every writer and
// analysis: RegionKind as in the JSON contract (PARALLEL_LOOP) and in ompP's
// text report (PARALLEL LOOP), NodeKind as in the JSON contract (task_stub).
#pragma once

#include <string_view>

#include "model/profile.hpp"

namespace ompp::model {

// "PARALLEL_LOOP" - docs/profile-json.md `regions[].kind`.
std::string_view to_string(RegionKind kind);
// "PARALLEL LOOP" - ompP's report headers and region overview.
std::string_view report_name(RegionKind kind);
// "task_stub" - docs/profile-json.md `nodes[].kind`.
std::string_view to_string(NodeKind kind);

}  // namespace ompp::model
