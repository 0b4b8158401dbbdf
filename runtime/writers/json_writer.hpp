// json_writer.hpp - the machine-readable profile (docs/profile-json.md; the
// full schema is in docs/runtime.md).  Every model field is written.
#pragma once

#include <nlohmann/json.hpp>

#include "model/profile.hpp"

namespace ompp::writers {

nlohmann::json to_json(const model::Profile& profile);

}  // namespace ompp::writers
