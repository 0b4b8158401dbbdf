#include "adapter/lifecycle.hpp"

#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>

#include "analyses/analyses_step.hpp"
#include "writers/json_writer.hpp"
#include "writers/report_files.hpp"
#include "writers/text_writer.hpp"

#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_user_lib.h>

// Provided by OPARI2's link-step file, if the program has one.
#pragma weak POMP2_Init_regions
#pragma weak POMP2_USER_Init_regions

namespace ompp::adapter {

std::atomic<core::Measurement*> g_gate{nullptr};
std::atomic<std::uint32_t> g_disabled_kinds{0};

namespace {

enum class Phase : int { Uninitialised, Starting, Active, Finalising, Finalised };

std::atomic<Phase> g_phase{Phase::Uninitialised};
std::atomic<bool> g_switched_on{true};
std::mutex g_start_mutex;
// Leaked on purpose: late events from other threads and handles may still
// reach them while the process exits.
core::Measurement* g_measurement = nullptr;
config::Config* g_config = nullptr;
std::string* g_start_date = nullptr;

std::string local_time_now() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", &local);
    return text;
}

std::string program_name() {
    char path[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return "unknown";
    const std::string full(path, static_cast<std::size_t>(n));
    const auto slash = full.rfind('/');
    return slash == std::string::npos ? full : full.substr(slash + 1);
}

std::uint32_t disabled_kinds(const config::Config& config) {
    using K = model::RegionKind;
    std::uint32_t mask = 0;
    const auto disable = [&](std::string_view option, std::initializer_list<K> kinds) {
        if (!config.flag(option)) return;
        for (K kind : kinds) mask |= 1U << static_cast<unsigned>(kind);
    };
    disable("OMPP_DISABLE_ATOMIC", {K::Atomic});
    disable("OMPP_DISABLE_BARRIER", {K::Barrier});
    disable("OMPP_DISABLE_CRITICAL", {K::Critical});
    disable("OMPP_DISABLE_FLUSH", {K::Flush});
    disable("OMPP_DISABLE_LOOP", {K::Loop});
    disable("OMPP_DISABLE_MASTER", {K::Master, K::Masked});
    disable("OMPP_DISABLE_ORDERED", {K::Ordered});
    disable("OMPP_DISABLE_SECTIONS", {K::Sections, K::Section});
    disable("OMPP_DISABLE_SINGLE", {K::Single});
    disable("OMPP_DISABLE_WORKSHARE", {K::Workshare});
    disable("OMPP_DISABLE_USER_REGION", {K::UserRegion});
    disable("OMPP_DISABLE_LOCKS", {K::Lock});
    disable("OMPP_DISABLE_LOCK", {K::Lock});
    disable("OMPP_DISABLE_TASKWAIT", {K::Taskwait});
    return mask;
}

void open_gate() {
    g_gate.store(g_switched_on.load() ? g_measurement : nullptr, std::memory_order_release);
}

void on_fatal_signal(int signal_number) {
    finalise();
    // SA_RESETHAND restored the default action: die of the same signal.
    std::raise(signal_number);
}

void install_signal_handlers() {
    for (int signal_number : {SIGINT, SIGTERM}) {
        struct sigaction current {};
        if (sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
        struct sigaction handler {};
        handler.sa_handler = on_fatal_signal;
        handler.sa_flags = SA_RESETHAND;
        sigemptyset(&handler.sa_mask);
        sigaction(signal_number, &handler, nullptr);
    }
}

void finalise_at_exit() { finalise(); }

void begin_measuring(core::Clock clock, config::Config config) {
    g_config = new config::Config(std::move(config));
    g_measurement = new core::Measurement(clock);
    g_start_date = new std::string(local_time_now());
    g_disabled_kinds.store(disabled_kinds(*g_config));
    analyses::on_measurement_start(*g_measurement, *g_config);
}

}  // namespace

void start() {
    std::lock_guard lock(g_start_mutex);
    if (g_phase.load() != Phase::Uninitialised) return;
    g_phase.store(Phase::Starting);
    std::vector<std::string> diagnostics;
    config::Config config = config::Config::load(diagnostics);
    for (const auto& line : diagnostics) std::fprintf(stderr, "%s\n", line.c_str());
    const bool use_tsc = config.text("OMPP_CLOCK") == "tsc";
    const bool handle_signals = config.flag("OMPP_HANDLE_SIGNALS");
    begin_measuring(core::Clock::calibrated(use_tsc), std::move(config));
    std::atexit(finalise_at_exit);
    if (handle_signals) install_signal_handlers();
    // OPARI2's eager registration, if the program was linked with its init file.
    if (&POMP2_Init_regions != nullptr) POMP2_Init_regions();
    if (&POMP2_USER_Init_regions != nullptr) POMP2_USER_Init_regions();
    g_phase.store(Phase::Active);
    open_gate();
}

core::Measurement* start_if_uninitialised() {
    if (g_phase.load(std::memory_order_acquire) == Phase::Uninitialised) {
        start();
        return g_gate.load(std::memory_order_acquire);
    }
    return nullptr;
}

void switch_on(bool on) {
    g_switched_on.store(on);
    if (g_phase.load() == Phase::Active) open_gate();
}

model::Profile finished_profile(const core::Measurement& measurement, const config::Config& config) {
    model::Profile profile = measurement.build_profile();
    std::string app = config.text("OMPP_APPNAME");
    profile.application = app.empty() ? program_name() : std::move(app);
    profile.start_date = g_start_date != nullptr ? *g_start_date : local_time_now();
    profile.end_date = local_time_now();
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
        profile.user_time_s = static_cast<double>(usage.ru_utime.tv_sec) + usage.ru_utime.tv_usec * 1e-6;
        profile.system_time_s = static_cast<double>(usage.ru_stime.tv_sec) + usage.ru_stime.tv_usec * 1e-6;
    }
    analyses::run_analyses(profile, config);
    return profile;
}

void finalise() {
    Phase expected = Phase::Active;
    if (!g_phase.compare_exchange_strong(expected, Phase::Finalising)) return;
    g_gate.store(nullptr, std::memory_order_release);
    const config::Config& config = *g_config;
    const model::Profile profile = finished_profile(*g_measurement, config);
    writers::ReportRequest request;
    request.directory = config.text("OMPP_OUTDIR");
    request.application = profile.application;
    request.threads = profile.threads;
    request.report_file = config.text("OMPP_REPORTFILE");
    std::vector<std::string> messages;
    const auto paths =
        writers::write_reports(request, writers::to_text(profile), writers::to_json(profile).dump(1), messages);
    for (const auto& line : messages) std::fprintf(stderr, "%s\n", line.c_str());
    if (paths && !config.flag("OMPP_QUIET")) {
        std::fprintf(stderr, "ompp: profile written to %s and %s\n", paths->text.c_str(), paths->json.c_str());
    }
    g_phase.store(Phase::Finalised);
}

core::Measurement& restart_for_testing(core::Clock clock, config::Config config) {
    std::lock_guard lock(g_start_mutex);
    g_gate.store(nullptr);
    begin_measuring(clock, std::move(config));
    g_switched_on.store(true);
    g_phase.store(Phase::Active);
    open_gate();
    return *g_measurement;
}

}  // namespace ompp::adapter
