#include "config/options.hpp"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

namespace ompp::config {
namespace {

using T = OptionType;

constexpr std::array kOptions{
    OptionSpec{"OMPP_APPNAME", T::String, "",
               "Application name used in report file names and headers (default: the program's file name, "
               "from /proc/self/exe)."},
    OptionSpec{"OMPP_OUTDIR", T::String, ".",
               "Directory the reports are written to, created if missing.  If it cannot be written, ompp "
               "says so once on stderr and writes to /tmp instead."},
    OptionSpec{"OMPP_REPORTFILE", T::String, "",
               "Exact path of the text report (overwritten if it exists); the JSON profile goes next to it "
               "with the extension .json.  Default: <app>.<threads>-<i>.ompp.txt with the first free <i>.  "
               "An MPI process puts its rank into either name (docs/mpi.md)."},
    OptionSpec{"OMPP_QUIET", T::Flag, "0", "Do not print where the reports were written."},
    OptionSpec{"OMPP_CLOCK", T::Choice, "tsc",
               "Time source: tsc (the invariant time-stamp counter, calibrated at start; falls back to "
               "monotonic where the CPU has none) or monotonic (clock_gettime).",
               "tsc|monotonic"},
    OptionSpec{"OMPP_HANDLE_SIGNALS", T::Bool, "1",
               "Write the profile when a signal ends the program (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, "
               "and crashes: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), then die of the same signal (each "
               "only if the program installed no handler of its own)."},
    OptionSpec{"OMPP_DEADLOCK", T::Choice, "off",
               "Deadlock detection: off, report (print the threads that wait for each other with what they "
               "wait for and hold, write the profile, keep waiting) or abort (the same, then end the program "
               "with status 86).  See docs/deadlock.md.",
               "off|report|abort"},
    OptionSpec{"OMPP_DEADLOCK_INTERVAL", T::Real, "0.1",
               "Seconds between two looks of the deadlock watchdog; a deadlock is reported once looks found it "
               "unchanged for 0.2 s (and at least twice).",
               {}, 0.01, 3600},
    OptionSpec{"OMPP_SNAPSHOT_INTERVAL", T::Real, "0",
               "Continuous profiling: seconds of wall-clock time between cumulative snapshots (0: none; "
               "at least 0.01).  See docs/analyses.md.",
               {}, 0, 1e6},
    OptionSpec{"OMPP_DUMP_INTERVAL", T::Real, "0",
               "ompP's name for OMPP_SNAPSHOT_INTERVAL; used when that is not set.", {}, 0, 1e6},
    OptionSpec{"OMPP_SNAPSHOT_LIMIT", T::Integer, "256",
               "Most snapshots kept; when full, every other periodic snapshot is dropped and the interval "
               "doubles.",
               {}, 2, 1e6},
    OptionSpec{"OMPP_MAX_DEPTH", T::Integer, "50",
               "Deepest call path measured.  Deeper paths (recursion) fold into one node per region below the "
               "node at this depth, with the deepest recursion of each, so cost and report size follow the "
               "program's structure, not its depth.  The text report prints call trees to depth 64.",
               {}, 1, 1e6},
    OptionSpec{"OMPP_CTR1", T::String, "",
               "Counter event: a software event (cpu_time, page_faults, ctx_switches, ...) or a PAPI event "
               "name.  See docs/analyses.md."},
    OptionSpec{"OMPP_CTR2", T::String, "", "Second counter event, as OMPP_CTR1."},
    OptionSpec{"OMPP_CTR3", T::String, "", "Third counter event, as OMPP_CTR1."},
    OptionSpec{"OMPP_CTR4", T::String, "", "Fourth counter event, as OMPP_CTR1."},
    OptionSpec{"OMPP_TRACE", T::Flag, "0",
               "Also record every event (time, thread, region, task) and write it as an OTF2 archive, "
               "<report stem>.otf2/traces.otf2, beside the profile.  See docs/tracing.md."},
    OptionSpec{"OMPP_TRACE_BUFFER", T::Integer, "4194304",
               "Bytes of trace buffer per thread (8 bytes per event, 16 with a value).  Flush mode splits it into four "
               "chunks written to a temporary file as they fill; memory mode drops later events.",
               {}, 48, 1e12},
    OptionSpec{"OMPP_TRACE_MODE", T::Choice, "flush",
               "flush: a background thread writes each full quarter of the trace buffer to a temporary "
               "file, no event is lost; memory: keep the "
               "first OMPP_TRACE_BUFFER bytes of events per thread and count the rest as dropped (the "
               "report warns).",
               "flush|memory"},
    OptionSpec{"OMPP_CONTROLFLOW_DOT", T::Flag, "0",
               "No longer used: 'ompp-view cfg PROFILE.ompp.json -o cfg.dot' draws the control-flow graph."},
    OptionSpec{"OMPP_DISABLE_ATOMIC", T::Flag, "0", "Do not measure atomic constructs."},
    OptionSpec{"OMPP_DISABLE_BARRIER", T::Flag, "0", "Do not measure explicit barriers."},
    OptionSpec{"OMPP_DISABLE_CRITICAL", T::Flag, "0", "Do not measure critical constructs."},
    OptionSpec{"OMPP_DISABLE_FLUSH", T::Flag, "0", "Do not measure flush constructs."},
    OptionSpec{"OMPP_DISABLE_LOOP", T::Flag, "0", "Do not measure worksharing loops (for/do, not parallel for)."},
    OptionSpec{"OMPP_DISABLE_MASTER", T::Flag, "0", "Do not measure master and masked constructs."},
    OptionSpec{"OMPP_DISABLE_ORDERED", T::Flag, "0", "Do not measure ordered constructs."},
    OptionSpec{"OMPP_DISABLE_SECTIONS", T::Flag, "0", "Do not measure sections constructs."},
    OptionSpec{"OMPP_DISABLE_SINGLE", T::Flag, "0", "Do not measure single constructs."},
    OptionSpec{"OMPP_DISABLE_WORKSHARE", T::Flag, "0", "Do not measure workshare constructs."},
    OptionSpec{"OMPP_DISABLE_USER_REGION", T::Flag, "0", "Do not measure user regions."},
    OptionSpec{"OMPP_DISABLE_LOCKS", T::Flag, "0",
               "Do not measure OpenMP lock calls (they still lock).  OMPP_DISABLE_LOCK is accepted too."},
    OptionSpec{"OMPP_DISABLE_LOCK", T::Flag, "0", "Same as OMPP_DISABLE_LOCKS (ompP accepted both)."},
    OptionSpec{"OMPP_DISABLE_TASKWAIT", T::Flag, "0",
               "Do not record taskwait nodes (tasks run there then show under the enclosing node)."},
    OptionSpec{"OMPP_DISABLE_MPI", T::Flag, "0",
               "Do not measure MPI calls (libompp_mpi, docs/mpi.md; the calls still go to MPI)."},
};

bool parse_bool(std::string_view text, bool& out) {
    for (std::string_view yes : {"1", "true", "yes", "on", "TRUE", "YES", "ON", "True", "Yes", "On"}) {
        if (text == yes) return out = true, true;
    }
    for (std::string_view no : {"0", "false", "no", "off", "FALSE", "NO", "OFF", "False", "No", "Off"}) {
        if (text == no) return out = false, true;
    }
    return false;
}

}  // namespace

std::span<const OptionSpec> option_specs() { return kOptions; }

std::string parse_option(const OptionSpec& spec, std::string_view text, OptionValue& value) {
    switch (spec.type) {
    case T::Flag: value = text != "0"; return {};
    case T::Bool: {
        bool parsed = false;
        if (!parse_bool(text, parsed)) return "expected 1/0, true/false, yes/no or on/off";
        value = parsed;
        return {};
    }
    case T::Integer: {
        std::int64_t parsed = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
        if (error != std::errc{} || end != text.data() + text.size()) return "expected an integer";
        if (parsed < spec.min || parsed > spec.max) return fmt::format("expected {} to {}", spec.min, spec.max);
        value = parsed;
        return {};
    }
    case T::Real: {
        const std::string copy(text);
        char* end = nullptr;
        errno = 0;
        const double parsed = std::strtod(copy.c_str(), &end);
        if (copy.empty() || end != copy.c_str() + copy.size() || errno != 0 || !std::isfinite(parsed)) {
            return "expected a number";
        }
        if (parsed < spec.min || parsed > spec.max) return fmt::format("expected {} to {}", spec.min, spec.max);
        value = parsed;
        return {};
    }
    case T::String: value = std::string(text); return {};
    case T::Choice: {
        std::string_view rest = spec.choices;
        while (!rest.empty()) {
            const auto bar = rest.find('|');
            if (rest.substr(0, bar) == text) {
                value = std::string(text);
                return {};
            }
            rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
        }
        return fmt::format("expected one of {}", spec.choices);
    }
    }
    return "unknown option type";
}

Config Config::load(std::vector<std::string>& diagnostics, const Lookup& lookup) {
    Config config;
    for (const OptionSpec& spec : kOptions) {
        OptionValue value;
        // Defaults are checked by a unit test; they always parse.
        parse_option(spec, spec.default_value, value);
        const std::string name(spec.name);
        const char* text = lookup ? lookup(name.c_str()) : std::getenv(name.c_str());
        if (text != nullptr) {
            OptionValue parsed;
            const std::string problem = parse_option(spec, text, parsed);
            if (problem.empty()) {
                value = std::move(parsed);
                config.set_[name] = true;
            } else {
                diagnostics.push_back(fmt::format("ompp: {}=\"{}\" ignored ({}); using the default \"{}\"", name,
                                                  text, problem, spec.default_value));
            }
        }
        config.values_[name] = std::move(value);
    }
    return config;
}

Config Config::defaults() {
    std::vector<std::string> ignored;
    return load(ignored, [](const char*) -> const char* { return nullptr; });
}

const OptionValue& Config::value(std::string_view name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) throw std::logic_error(fmt::format("ompp: option {} is not in the spec table", name));
    return it->second;
}

bool Config::flag(std::string_view name) const { return std::get<bool>(value(name)); }
std::int64_t Config::integer(std::string_view name) const { return std::get<std::int64_t>(value(name)); }
double Config::real(std::string_view name) const { return std::get<double>(value(name)); }
const std::string& Config::text(std::string_view name) const { return std::get<std::string>(value(name)); }
bool Config::is_set(std::string_view name) const { return set_.contains(name); }

}  // namespace ompp::config
