// ctc.hpp - OPARI2's compile-time-context strings.
//
//   "<len>*regionType=<t>*sscl=<file>:<l1>:<l2>*escl=<file>:<l1>:<l2>*[key=value*]...*"
//
// Keys understood: regionType, sscl, escl, criticalName, userRegionName,
// lockName, numSections, implicitBarrier, timing, function (ompp's: the enclosing function),
// has<Clause> (kept as clause names).  Unknown keys are ignored,
// as pomp2_ompp.h promises; the length prefix is not trusted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile.hpp"

namespace ompp::core {

struct CtcInfo {
    std::string region_type;          // as spelled in the string
    model::SourceRange directive;     // sscl
    model::SourceRange block_end;     // escl
    std::optional<std::string> name;  // criticalName / userRegionName / lockName
    std::optional<std::string> function;
    int num_sections = 0;
    bool untied = false;
    // implicitBarrier=join: a worksharing construct that ends its parallel
    // region, whose barrier may be the region's join barrier (GCC leaves the
    // construct's own barrier out).
    bool barrier_at_join = false;
    // timing=count: the construct is counted, its time not measured.
    bool counted_only = false;
    std::vector<std::string> clauses;  // "has" keys without the prefix, e.g. "Nowait"
};

// nullopt if the string has no regionType.
std::optional<CtcInfo> parse_ctc(std::string_view ctc);

// Maps OPARI2's and ompp's regionType names to a kind; nullopt if unknown.
std::optional<model::RegionKind> region_kind_of(std::string_view region_type);

}  // namespace ompp::core
