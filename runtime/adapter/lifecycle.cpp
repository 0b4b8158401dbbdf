#include "adapter/lifecycle.hpp"

#include "platform/kernel_io.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>
#include <vector>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>

#include "analyses/analyses_step.hpp"
#include "config/launcher.hpp"
#include "analyses/control_flow/control_flow.hpp"
#include "deadlock/watchdog.hpp"
#include "writers/json_writer.hpp"
#include "writers/report_files.hpp"
#include "writers/text_writer.hpp"
#include "trace/otf2_archive.hpp"
#include "trace/recorder.hpp"

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
// The launcher's word at start, and MPI_Init's ({rank, size}; size 0
// until its wrapper reports).
std::optional<config::LaunchedRank> g_launched;
std::atomic<int> g_mpi_rank{0};
std::atomic<int> g_mpi_size{0};

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
    const ssize_t n = platform::kernel_io::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return "unknown";
    const std::string full(path, static_cast<std::size_t>(n));
    const auto slash = full.rfind('/');
    return slash == std::string::npos ? full : full.substr(slash + 1);
}

// The MPI process: MPI_Init's word, else the launcher's environment; none
// for a program that is neither launched nor initialised as MPI.
std::optional<model::MpiProcess> mpi_process() {
    model::MpiProcess process;
    if (const int size = g_mpi_size.load(); size > 0) {
        process.rank = g_mpi_rank.load();
        process.size = size;
    } else if (g_launched) {
        process.rank = g_launched->rank;
        process.size = g_launched->size;
    } else {
        return std::nullopt;
    }
    char host[256] = {};
    if (platform::kernel_io::gethostname(host, sizeof host) == 0) process.host = host;
    return process;
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
    disable("OMPP_DISABLE_MPI", {K::Mpi});
    return mask;
}

void open_gate() {
    const bool on = g_switched_on.load();
    g_gate.store(on ? g_measurement : nullptr, std::memory_order_release);
    // Switched off, the instrumented code counts no untimed visit either.
    if (on) {
        g_measurement->allow_inline_counting();
    } else {
        g_measurement->stop_inline_counting();
    }
}

// Signals whose default action ends the program, answered by writing the
// profile first: requests to stop (SIGINT, SIGTERM, SIGHUP, SIGQUIT, a CPU
// time limit's SIGXCPU) and crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, and
// SIGABRT from abort(), a failed assert() or glibc's heap checks).
//
// The handler may only do async-signal-safe things, and writing the profile
// (allocation, stdio, locks) is not.  A writer thread, started with the
// handlers and blocking every one of these signals, waits on a pipe; the
// handler writes a byte, waits a bounded time for the profile, then dies of
// the signal it got (SA_RESETHAND restored the default action), so the exit
// status, and a core dump where the signal makes one, are as without ompp.
// A second signal while waiting kills at once.  A crash that left a lock
// the writer needs held (a corrupted heap detected inside malloc) costs at
// most the bounded wait, then the program dies without a profile.  A stack
// overflow (a runaway recursion) leaves no stack to run the handler on, so
// the handlers run on an alternate signal stack that every measured thread
// gets as it is first seen (AlternateSignalStack).
constexpr std::array kProfiledSignals{SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU,
                                      SIGSEGV, SIGBUS,  SIGFPE, SIGILL,  SIGABRT};
int g_writer_pipe[2] = {-1, -1};  // read end: the writer thread; write end: the handler
pid_t g_writer_process = 0;        // a fork()ed child has no writer thread: it just dies
std::atomic<int> g_ending_signal{0};  // the first profiled signal received, for the report
constexpr int kSignalWaitSteps = 1000;
constexpr long kSignalWaitStepNs = 10'000'000;  // 1000 x 10 ms: at most 10 s
// Whether this thread is writing the profile: a signal it raises itself
// there (abort() in the writer) must not wait for its own work.  Static TLS:
// read in the handler without a __tls_get_addr call.
__thread bool t_writing_profile __attribute__((tls_model("initial-exec"))) = false;

sigset_t profiled_signals() {
    sigset_t set;
    sigemptyset(&set);
    for (const int signal_number : kProfiledSignals) sigaddset(&set, signal_number);
    return set;
}

// The profiled signals blocked on this thread while in scope, and the
// thread marked as writing the profile: the writer thread never runs their
// handler, and the thread writing the profile at exit does not wait in it
// for itself (a signal sent to the process goes to another thread, or stays
// pending until the profile is written; a fault while writing kills at once).
class WritingProfile {
public:
    WritingProfile() {
        const sigset_t set = profiled_signals();
        pthread_sigmask(SIG_BLOCK, &set, &previous_);
        t_writing_profile = true;
    }
    ~WritingProfile() {
        t_writing_profile = false;
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }
    WritingProfile(const WritingProfile&) = delete;
    WritingProfile& operator=(const WritingProfile&) = delete;

private:
    sigset_t previous_;
};

// This thread's alternate signal stack while it lives, unless the program
// gave the thread one of its own.  Enough for the handler, which only
// writes a byte and sleeps: it never runs the profile writer.
class AlternateSignalStack {
public:
    AlternateSignalStack() = default;
    AlternateSignalStack(const AlternateSignalStack&) = delete;
    AlternateSignalStack& operator=(const AlternateSignalStack&) = delete;
    ~AlternateSignalStack() {
        if (memory_ == nullptr) return;
        stack_t disable{};
        disable.ss_flags = SS_DISABLE;
        ::sigaltstack(&disable, nullptr);
        ::munmap(memory_, size_);
    }

    void install() {
        stack_t current{};
        if (memory_ != nullptr || ::sigaltstack(nullptr, &current) != 0 || (current.ss_flags & SS_DISABLE) == 0)
            return;
        size_ = std::max<std::size_t>(kMinimumSize, static_cast<std::size_t>(::sysconf(_SC_SIGSTKSZ)));
        void* memory = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
        if (memory == MAP_FAILED) return;
        stack_t stack{};
        stack.ss_sp = memory;
        stack.ss_size = size_;
        if (::sigaltstack(&stack, nullptr) != 0) {
            ::munmap(memory, size_);
            return;
        }
        memory_ = memory;
    }

private:
    static constexpr std::size_t kMinimumSize = 64 * 1024;
    void* memory_ = nullptr;
    std::size_t size_ = 0;
};
thread_local AlternateSignalStack t_signal_stack;

void give_thread_a_signal_stack() { t_signal_stack.install(); }

void on_fatal_signal(int signal_number) {
    const int saved_errno = errno;
    int none = 0;
    g_ending_signal.compare_exchange_strong(none, signal_number);
    const char byte = 1;
    if (!t_writing_profile && platform::kernel_io::getpid() == g_writer_process &&
        platform::kernel_io::write(g_writer_pipe[1], &byte, 1) == 1) {
        for (int step = 0; step < kSignalWaitSteps && g_phase.load() != Phase::Finalised; ++step) {
            timespec pause{0, kSignalWaitStepNs};
            platform::kernel_io::nanosleep(&pause, nullptr);
        }
    }
    errno = saved_errno;
    ::raise(signal_number);
}

void* profile_writer(void*) {
    char byte = 0;
    ssize_t n = 0;
    do {
        n = platform::kernel_io::read(g_writer_pipe[0], &byte, 1);
    } while (n < 0 && errno == EINTR);
    if (n == 1) finalise();
    return nullptr;
}

bool start_profile_writer() {
    if (platform::kernel_io::pipe2(g_writer_pipe, O_CLOEXEC) != 0) return false;
    pthread_t thread;
    int started = 0;
    {
        // The thread inherits the blocked signals: the handler never runs on it.
        const sigset_t set = profiled_signals();
        sigset_t previous;
        pthread_sigmask(SIG_BLOCK, &set, &previous);
        started = pthread_create(&thread, nullptr, profile_writer, nullptr);
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    }
    if (started != 0) {
        platform::kernel_io::close(g_writer_pipe[0]);
        platform::kernel_io::close(g_writer_pipe[1]);
        g_writer_pipe[0] = g_writer_pipe[1] = -1;
        return false;
    }
    pthread_detach(thread);
    g_writer_process = platform::kernel_io::getpid();
    return true;
}

void install_signal_handlers() {
    bool writer_started = false;
    for (const int signal_number : kProfiledSignals) {
        struct sigaction current {};
        if (sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
        if (!writer_started) {
            if (!(writer_started = start_profile_writer())) return;
            g_measurement->set_thread_attach_hook(give_thread_a_signal_stack);
            give_thread_a_signal_stack();  // the starting thread may be attached already
        }
        struct sigaction handler {};
        handler.sa_handler = on_fatal_signal;
        handler.sa_flags = SA_RESETHAND | SA_ONSTACK;
        sigemptyset(&handler.sa_mask);
        sigaction(signal_number, &handler, nullptr);
    }
}

// The report says when the program did not end by itself.
void note_ending_signal(model::Profile& profile) {
    const int signal_number = g_ending_signal.load();
    if (signal_number == 0) return;
    const char* abbreviation = sigabbrev_np(signal_number);
    profile.warnings.push_back(
        {fmt::format("the program was ended by signal {} (SIG{}: {}); the profile covers the run up to it",
                     signal_number, abbreviation != nullptr ? abbreviation : "?", strsignal(signal_number)),
         std::nullopt, 1});
}

void finalise_at_exit() { finalise(); }

void begin_measuring(core::Clock clock, config::Config config) {
    g_config = new config::Config(std::move(config));
    g_measurement =
        new core::Measurement(clock, static_cast<std::uint32_t>(g_config->integer("OMPP_MAX_DEPTH")));
    g_start_date = new std::string(local_time_now());
    g_disabled_kinds.store(disabled_kinds(*g_config));
    analyses::on_measurement_start(*g_measurement, *g_config);
    if (g_config->flag("OMPP_TRACE")) {
        trace::Settings settings;
        settings.buffer_bytes = static_cast<std::size_t>(g_config->integer("OMPP_TRACE_BUFFER"));
        settings.mode = g_config->text("OMPP_TRACE_MODE") == "memory" ? trace::Mode::Memory : trace::Mode::Flush;
        if (const char* tmp = std::getenv("TMPDIR"); tmp != nullptr && *tmp != '\0') settings.spill_directory = tmp;
        trace::start(settings);
    }
}

// OMPP_TRACE: what the trace holds, for the report (its warnings) and stderr.
void note_trace_totals(const trace::Totals& totals, model::Profile& profile) {
    if (totals.dropped > 0) {
        // Flush mode loses events only to a failed spill or to threads still
        // recording after the trace was closed at program end.
        const char* why = totals.spill_failed ? "a trace spill file could not be written"
                          : totals.mode == trace::Mode::Memory
                              ? "OMPP_TRACE_MODE=memory kept the first OMPP_TRACE_BUFFER bytes per thread"
                              : "recorded after the trace was closed at program end";
        profile.warnings.push_back({fmt::format("OMPP_TRACE: {} event(s) not in the trace ({}); {} recorded",
                                                totals.dropped, why, totals.records),
                                    std::nullopt, totals.dropped});
    }
    if (totals.untraced_threads > 0) {
        profile.warnings.push_back({fmt::format("OMPP_TRACE: threads past the first {} are not traced",
                                                trace::kMaxTracedThreads),
                                    std::nullopt, totals.untraced_threads});
    }
}

void write_trace(const core::Measurement& measurement, const model::Profile& profile, const std::string& stem,
                 core::Ticks end, std::vector<std::string>& messages, bool quiet) {
    trace::ArchiveRequest request;
    request.path = stem + ".otf2";
    request.regions = profile.regions;
    request.seconds_per_tick = measurement.clock().seconds_per_tick();
    request.start = measurement.start();
    request.end = end;
    request.application = profile.application;
    const trace::ArchiveResult result = trace::write_otf2(request);
    if (!result.error.empty()) {
        messages.push_back(fmt::format("ompp: OMPP_TRACE: {}", result.error));
    } else if (!quiet) {
        messages.push_back(fmt::format("ompp: trace written to {}/traces.otf2 ({} events)", request.path,
                                       result.events));
    }
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
    g_launched = config::launched_rank();
    begin_measuring(core::Clock::calibrated(use_tsc), std::move(config));
    std::atexit(finalise_at_exit);
    if (handle_signals) install_signal_handlers();
    // The watchdog writes the profile itself: the program is stuck.
    if (const std::string& deadlock = g_config->text("OMPP_DEADLOCK"); deadlock != "off") {
        deadlock::start_watchdog(deadlock == "abort" ? deadlock::OnDeadlock::Abort : deadlock::OnDeadlock::Report,
                                 g_config->real("OMPP_DEADLOCK_INTERVAL"), finalise);
    }
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

void set_mpi_process(int rank, int size) {
    if (size <= 0 || rank < 0 || rank >= size) return;
    g_mpi_rank.store(rank);
    g_mpi_size.store(size);
}

model::Profile finished_profile(const core::Measurement& measurement, const config::Config& config) {
    model::Profile profile = measurement.build_profile();
    profile.mpi = mpi_process();
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
    const WritingProfile writing;
    Phase expected = Phase::Active;
    if (!g_phase.compare_exchange_strong(expected, Phase::Finalising)) return;
    g_gate.store(nullptr, std::memory_order_release);
    // Runs from atexit and signal handlers: nothing may escape, the
    // application's exit status is not ours to change.
    try {
        // Regions still open on any thread count up to now, closed once the
        // events in flight when the gate closed have ended.
        const core::Ticks end = g_measurement->now();
        g_measurement->stop();
        const bool tracing = trace::stop();
        g_measurement->close_open_regions(end);
        const config::Config& config = *g_config;
        model::Profile profile = finished_profile(*g_measurement, config);
        if (tracing) note_trace_totals(trace::totals(), profile);
        note_ending_signal(profile);
        writers::ReportRequest request;
        request.directory = config.text("OMPP_OUTDIR");
        request.application = profile.application;
        request.threads = profile.threads;
        request.report_file = config.text("OMPP_REPORTFILE");
        if (profile.mpi) request.process_tag = writers::mpi_process_tag(profile.mpi->rank, profile.mpi->size);
        std::vector<std::string> messages;
        // One control-flow renderer: ompp-view draws the graph from the JSON.
        if (config.flag("OMPP_CONTROLFLOW_DOT")) {
            messages.push_back("ompp: OMPP_CONTROLFLOW_DOT: libompp writes no .cfg.dot any more; "
                               "'ompp-view cfg <profile>.ompp.json -o cfg.dot' draws the graph from the JSON profile");
        }
        // One after the other, so that the JSON document (several times the
        // size of its text) is gone before the text report is built.
        const std::string json =
            writers::to_json(profile).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
        const std::string text = writers::to_text(profile, analyses::text_sections(profile));
        const auto paths = writers::write_reports(request, text, json, messages);
        if (tracing && paths) {
            write_trace(*g_measurement, profile, paths->stem, end, messages, config.flag("OMPP_QUIET"));
        }
        for (const auto& line : messages) std::fprintf(stderr, "%s\n", line.c_str());
        if (paths && !config.flag("OMPP_QUIET")) {
            std::fprintf(stderr, "ompp: profile written to %s and %s\n", paths->text.c_str(), paths->json.c_str());
            // Warnings are counted per thread and reason while measuring and
            // told once, here; the report lists them.
            if (!profile.warnings.empty()) {
                std::uint64_t occurrences = 0;
                for (const auto& warning : profile.warnings) occurrences += warning.occurrences;
                std::fprintf(stderr, "ompp: %zu kind(s) of warning, %llu in all (unbalanced events, regions left "
                             "open, ...); see \"ompp Warnings\" in the report\n",
                             profile.warnings.size(), static_cast<unsigned long long>(occurrences));
            }
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "ompp: could not write the profile: %s\n", error.what());
    } catch (...) {
        std::fprintf(stderr, "ompp: could not write the profile\n");
    }
    g_phase.store(Phase::Finalised);
}

core::Measurement& restart_for_testing(core::Clock clock, config::Config config) {
    std::lock_guard lock(g_start_mutex);
    g_gate.store(nullptr);
    if (g_measurement != nullptr) {
        // Threads still pointing at the previous measurement's caches count
        // nothing more there.
        g_measurement->stop_inline_counting();
        // The previous measurement stays alive, and reachable for
        // LeakSanitizer when a test restarts more than once: threads of the
        // test (a pool's exit hooks, a thread's cached binding) may still
        // refer to it.
        static auto* const retired = new std::vector<const void*>();
        retired->insert(retired->end(), {g_config, g_measurement, g_start_date});
    }
    g_mpi_size.store(0);
    begin_measuring(clock, std::move(config));
    g_switched_on.store(true);
    g_phase.store(Phase::Active);
    open_gate();
    return *g_measurement;
}

}  // namespace ompp::adapter
