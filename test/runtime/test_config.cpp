#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "config/options.hpp"

using namespace ompp::config;

TEST_CASE("every option in the spec table is well formed and its default parses", "[config]") {
    std::set<std::string_view> names;
    for (const OptionSpec& spec : option_specs()) {
        INFO(spec.name);
        CHECK(spec.name.starts_with("OMPP_"));
        CHECK(names.insert(spec.name).second);
        CHECK(spec.doc.size() > 10);
        CHECK((spec.type != OptionType::Choice || !spec.choices.empty()));
        OptionValue value;
        CHECK(parse_option(spec, spec.default_value, value).empty());
    }
    const Config defaults = Config::defaults();
    CHECK(defaults.text("OMPP_OUTDIR") == ".");
    CHECK_FALSE(defaults.flag("OMPP_QUIET"));
    CHECK(defaults.text("OMPP_CLOCK") == "tsc");
}

TEST_CASE("bad values give one line naming the variable, and the default", "[config]") {
    const std::map<std::string, std::string> env{
        {"OMPP_CLOCK", "sundial"}, {"OMPP_HANDLE_SIGNALS", "perhaps"}, {"OMPP_QUIET", "1"}};
    std::vector<std::string> diagnostics;
    const Config config = Config::load(diagnostics, [&](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    });
    REQUIRE(diagnostics.size() == 2);
    CHECK_THAT(diagnostics[0], Catch::Contains("OMPP_CLOCK") && Catch::Contains("sundial") &&
                                   Catch::Contains("tsc|monotonic"));
    CHECK_THAT(diagnostics[1], Catch::Contains("OMPP_HANDLE_SIGNALS"));
    CHECK(config.text("OMPP_CLOCK") == "tsc");
    CHECK(config.flag("OMPP_HANDLE_SIGNALS"));
    CHECK(config.flag("OMPP_QUIET"));
    CHECK(config.is_set("OMPP_QUIET"));
    CHECK_FALSE(config.is_set("OMPP_CLOCK"));
}

TEST_CASE("ompP's flag convention: anything but 0 switches on", "[config]") {
    const OptionSpec* spec = nullptr;
    for (const auto& s : option_specs()) {
        if (s.name == "OMPP_DISABLE_LOOP") spec = &s;
    }
    REQUIRE(spec != nullptr);
    OptionValue value;
    CHECK(parse_option(*spec, "yes", value).empty());
    CHECK(std::get<bool>(value));
    CHECK(parse_option(*spec, "0", value).empty());
    CHECK_FALSE(std::get<bool>(value));
}

TEST_CASE("numbers are range checked", "[config]") {
    const OptionSpec spec{"OMPP_TEST_NUMBER", OptionType::Real, "1", "a number for this test", {}, 0.1, 10};
    OptionValue value;
    CHECK(parse_option(spec, "2.5", value).empty());
    CHECK(std::get<double>(value) == 2.5);
    CHECK_FALSE(parse_option(spec, "0.01", value).empty());
    CHECK_FALSE(parse_option(spec, "2.5s", value).empty());
    for (const char* not_finite : {"nan", "NAN", "-nan", "inf", "-inf", "infinity", "1e999"}) {
        CHECK_FALSE(parse_option(spec, not_finite, value).empty());
    }
    const OptionSpec integer{"OMPP_TEST_INT", OptionType::Integer, "1", "an integer for this test", {}, 1, 4};
    CHECK(parse_option(integer, "4", value).empty());
    CHECK_FALSE(parse_option(integer, "5", value).empty());
    CHECK_FALSE(parse_option(integer, "x", value).empty());
}
