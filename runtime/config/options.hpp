// options.hpp - every environment variable libompp reads, in one spec table
// (name, type, default, doc).  The same table drives parsing, the defaults,
// the docs (docs/runtime.md) and a unit test that walks it.
//
// Bad values never stop the program: each gives one stderr line naming the
// variable and the value used instead (the default).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ompp::config {

enum class OptionType : std::uint8_t {
    Flag,     // ompP style: set to anything but "0" -> on
    Bool,     // 0/1, true/false, yes/no, on/off
    Integer,  // decimal, within [min, max]
    Real,     // decimal, within [min, max]
    String,
    Choice,   // one of `choices` ("a|b|c")
};

struct OptionSpec {
    std::string_view name;
    OptionType type;
    std::string_view default_value;
    std::string_view doc;
    std::string_view choices = {};  // Choice: "tsc|monotonic"
    double min = 0;                 // Integer/Real bounds
    double max = 0;
};

// The table (ordered as documented).
std::span<const OptionSpec> option_specs();

using OptionValue = std::variant<bool, std::int64_t, double, std::string>;

// Parses one value of a spec; nullopt-like failure is reported through the
// returned string (empty on success).
std::string parse_option(const OptionSpec& spec, std::string_view text, OptionValue& value);

class Config {
public:
    using Lookup = std::function<const char*(const char*)>;
    // Every option from `lookup` (getenv when not given).  Each bad value
    // appends one line to `diagnostics` and takes the default.
    static Config load(std::vector<std::string>& diagnostics, const Lookup& lookup = {});
    static Config defaults();

    bool flag(std::string_view name) const;  // Flag and Bool options
    std::int64_t integer(std::string_view name) const;
    double real(std::string_view name) const;
    const std::string& text(std::string_view name) const;  // String and Choice options
    // Which variables were set explicitly (for the report's header).
    bool is_set(std::string_view name) const;

private:
    const OptionValue& value(std::string_view name) const;
    std::map<std::string, OptionValue, std::less<>> values_;
    std::map<std::string, bool, std::less<>> set_;
};

}  // namespace ompp::config
