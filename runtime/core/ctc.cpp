#include "core/ctc.hpp"

#include <charconv>
#include <utility>

namespace ompp::core {
namespace {

int to_int(std::string_view text) {
    int value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

// The instrumenter writes '*' (the field separator) in a file or function
// name as "%2A" and '%' as "%25" (instrumenter/plan/Ctc.cpp).
std::string decode_escaped(std::string_view text) {
    std::string name;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::string_view rest = text.substr(i);
        if (rest.starts_with("%2A")) {
            name += '*';
            i += 2;
        } else if (rest.starts_with("%25")) {
            name += '%';
            i += 2;
        } else {
            name += text[i];
        }
    }
    return name;
}

// "<file>:<first>:<last>"; the file name may itself contain ':'.
model::SourceRange parse_location(std::string_view text) {
    model::SourceRange range;
    const auto last_colon = text.rfind(':');
    if (last_colon == std::string_view::npos) {
        range.file = decode_escaped(text);
        return range;
    }
    const auto first_colon = text.rfind(':', last_colon - 1);
    if (first_colon == std::string_view::npos || last_colon == 0) {
        range.file = decode_escaped(text.substr(0, last_colon));
        range.first_line = range.last_line = to_int(text.substr(last_colon + 1));
        return range;
    }
    range.file = decode_escaped(text.substr(0, first_colon));
    range.first_line = to_int(text.substr(first_colon + 1, last_colon - first_colon - 1));
    range.last_line = to_int(text.substr(last_colon + 1));
    return range;
}

}  // namespace

std::optional<CtcInfo> parse_ctc(std::string_view ctc) {
    CtcInfo info;
    bool has_type = false;
    // Fields are separated by '*'; the first is the length, the last two empty.
    std::size_t pos = ctc.find('*');
    while (pos != std::string_view::npos && pos < ctc.size()) {
        const std::size_t next = ctc.find('*', pos + 1);
        const std::string_view field =
            ctc.substr(pos + 1, (next == std::string_view::npos ? ctc.size() : next) - pos - 1);
        pos = next;
        const auto eq = field.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view key = field.substr(0, eq);
        const std::string_view value = field.substr(eq + 1);
        if (key == "regionType") {
            info.region_type = std::string(value);
            has_type = true;
        } else if (key == "sscl") {
            info.directive = parse_location(value);
        } else if (key == "escl") {
            info.block_end = parse_location(value);
        } else if (key == "criticalName" || key == "userRegionName") {
            info.name = std::string(value);
        } else if (key == "lockName") {
            info.name = decode_escaped(value);
        } else if (key == "function") {
            info.function = decode_escaped(value);
        } else if (key == "numSections") {
            info.num_sections = to_int(value);
        } else if (key == "implicitBarrier") {
            info.barrier_at_join = value == "join";
        } else if (key == "timing") {
            info.counted_only = value == "count";
        } else if (key.starts_with("has")) {
            if (key == "hasUntied") info.untied = true;
            info.clauses.emplace_back(key.substr(3));
        }
    }
    if (!has_type) return std::nullopt;
    return info;
}

std::optional<model::RegionKind> region_kind_of(std::string_view type) {
    using K = model::RegionKind;
    static constexpr std::pair<std::string_view, K> kTypes[] = {
#define OMPP_REGION_TYPE(Type, Kind, Written) {Type, K::Kind},
#include <pomp2/ompp_regions.def>
    };
    for (const auto& [name, kind] : kTypes) {
        if (name == type) return kind;
    }
    return std::nullopt;
}

}  // namespace ompp::core
