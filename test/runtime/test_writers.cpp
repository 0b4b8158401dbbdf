#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>

#include "analyses/analyses_step.hpp"
#include "model/names.hpp"
#include "writers/json_writer.hpp"
#include "writers/report_files.hpp"
#include "writers/text_writer.hpp"

using namespace ompp;
namespace fs = std::filesystem;

namespace {

model::Profile small_profile() {
    model::Profile p;
    p.application = "demo";
    p.threads = 2;
    p.wall_time_s = 2.0;
    model::Region par{1, model::RegionKind::Parallel, std::nullopt, {"demo.c", 10, 10}, {"demo.c", 20, 20}};
    model::Region crit{2, model::RegionKind::Critical, std::string("lockA"), {"demo.c", 12, 12}, {"demo.c", 14, 14}};
    p.regions = {par, crit};
    model::Node root;
    root.threads.push_back({});
    root.threads[0].visits = 1;
    root.threads[0].inclusive_s = 2.0;
    root.threads[0].exclusive_s = 0.5;
    model::Node pn;
    pn.id = 1;
    pn.parent = 0;
    pn.kind = model::NodeKind::Region;
    pn.region = 1;
    for (std::uint32_t t = 0; t < 2; ++t) {
        model::ThreadMetrics m;
        m.thread = t;
        m.visits = 1;
        m.inclusive_s = 1.5;
        m.exclusive_s = 1.0;
        m.startup_s = 0.01 * (t + 1);
        pn.threads.push_back(m);
    }
    model::Node cn;
    cn.id = 2;
    cn.parent = 1;
    cn.kind = model::NodeKind::Region;
    cn.region = 2;
    model::ThreadMetrics cm;
    cm.visits = 4;
    cm.inclusive_s = 0.5;
    cm.exclusive_s = 0.5;
    cm.enter_s = 0.25;
    cn.threads.push_back(cm);
    cn.predecessors.push_back({1, 0, 4});
    p.nodes = {root, pn, cn};
    p.warnings.push_back({"R00002 CRITICAL demo.c (12-14): end event without a matching begin; ignored", 2, 3});
    p.tasks.push_back({7, 3, 0.1, 0.05, 0.2, 0.01, 2, 1});
    return p;
}

}  // namespace

TEST_CASE("JSON profile carries the contract's keys and every model field", "[writers]") {
    const auto json = writers::to_json(small_profile());
    CHECK(json["format"] == "ompp-profile");
    CHECK(json["version"] == 1);
    CHECK(json["application"] == "demo");
    CHECK(json["threads"] == 2);
    CHECK(json["wall_time_s"] == 2.0);
    CHECK(json["regions"][1]["kind"] == "CRITICAL");
    CHECK(json["regions"][1]["name"] == "lockA");
    CHECK(json["regions"][0]["name"].is_null());
    CHECK(json["regions"][0]["first_line"] == 10);
    CHECK(json["regions"][0]["last_line"] == 20);
    CHECK(json["nodes"][0]["parent"].is_null());
    CHECK(json["nodes"][0]["kind"] == "root");
    CHECK(json["nodes"][2]["threads"][0]["enter_s"] == 0.25);
    CHECK(json["nodes"][2]["predecessors"][0]["count"] == 4);
    CHECK(json["nodes"][1]["threads"][1]["startup_s"] == 0.02);
    CHECK(json["tasks"][0]["max_concurrent_per_thread"] == 2);
    CHECK(json["tasks"][0]["included"] == 1);
    CHECK(json["warnings"][0]["occurrences"] == 3);
    CHECK(json["overheads"]["program"].contains("synchronization_s"));
    CHECK(json["properties"].is_array());
    CHECK(json["snapshots"].is_array());
    // Round trip through text.
    CHECK(nlohmann::json::parse(json.dump()) == json);
}

TEST_CASE("text report has ompP's sections, columns and a SUM row", "[writers]") {
    const std::string text = writers::to_text(small_profile());
    for (const char* expected :
         {"----     ompP General Information     ----", "Application Name: demo", "ompP Region Overview",
          "CRITICAL: 1 region:", " * R00002 demo.c (12-14) 'lockA'", "ompP Callgraph", "[demo: 2 threads]",
          "ompP Flat Region Profile (inclusive data)", "R00001 demo.c (10-20) PARALLEL",
          "execT      execC      bodyT   exitBarT   startupT   shutdwnT      taskT", "enterT", " SUM",
          "ompP Callgraph Region Profiles (incl./excl. data)", "execT/I    execT/E", "[*00] demo",
          "[=02] R00002", "Task Statistics", "Warnings"}) {
        INFO(expected);
        CHECK_THAT(text, Catch::Contains(expected));
    }
}

TEST_CASE("a construct counted without timing: only its count, a note saying so, timed=false", "[writers]") {
    model::Profile p = small_profile();
    p.regions[1].kind = model::RegionKind::Atomic;
    p.regions[1].name.reset();
    p.regions[1].timed = false;
    p.nodes[2].threads[0].inclusive_s = p.nodes[2].threads[0].exclusive_s = p.nodes[2].threads[0].enter_s = 0;
    const std::string text = writers::to_text(p);
    CHECK_THAT(text, Catch::Contains(" * R00002 demo.c (12-14) (counted, not timed)"));
    CHECK_THAT(text, Catch::Contains("R00002 demo.c (12-14) ATOMIC\n  counted, not timed: "));
    // Its flat profile has the count column alone.
    const auto table = text.find("\n TID", text.find("R00002 demo.c (12-14) ATOMIC"));
    REQUIRE(table != std::string::npos);
    CHECK(text.substr(table, text.find('\n', table + 1) - table) == "\n TID      execC");
    CHECK(writers::to_json(p)["regions"][1]["timed"] == false);
    CHECK(writers::to_json(p)["regions"][0]["timed"] == true);
    CHECK_THAT(writers::to_text(small_profile()), !Catch::Contains("counted, not timed"));
}

TEST_CASE("text report names regions by file relative to the source root and by function", "[writers]") {
    model::Profile p = small_profile();
    p.source_root = "/home/u/build-tree/src/";
    p.regions[0].directive.file = p.regions[0].block_end.file = "/home/u/build-tree/src/omp/PdV.cpp";
    p.regions[0].function = "Chunk::PdV_kernel";
    const std::string text = writers::to_text(p, analyses::text_sections(p));
    CHECK_THAT(text, Catch::Contains("R00001 omp/PdV.cpp (10-20) in Chunk::PdV_kernel PARALLEL"));
    CHECK_THAT(text, Catch::Contains("      2.00 (66.7%)         1  Chunk::PdV_kernel (omp/PdV.cpp)"));
    CHECK_THAT(text, !Catch::Contains("/home/u/build-tree/src/omp"));
    const auto json = writers::to_json(p);
    CHECK(json["source_root"] == "/home/u/build-tree/src/");
    CHECK(json["regions"][0]["file"] == "/home/u/build-tree/src/omp/PdV.cpp");
    CHECK(json["regions"][0]["function"] == "Chunk::PdV_kernel");
    CHECK(json["regions"][1]["function"].is_null());
}

TEST_CASE("text report opens with a summary: regions by their own time, properties, overheads", "[writers]") {
    model::Profile p = small_profile();
    p.properties.push_back({"CriticalSectionContention", 2, 6.25, ""});
    p.overheads.total_s = 4.0;
    p.overheads.program.synchronization_s = 0.25;
    const std::string text = writers::to_text(p, analyses::text_sections(p));
    REQUIRE(text.find("ompp Summary") < text.find("ompP General Information"));
    const std::string summary = text.substr(0, text.find("ompP General Information"));
    // Exclusive thread-seconds: the parallel region 2 x 1.0, the critical
    // 0.5, the root 0.5, of 3.0 in all; the larger comes first.
    const auto parallel = summary.find("      2.00 (66.7%)         1  R00001 PARALLEL demo.c (10-20)");
    const auto critical = summary.find("      0.50 (16.7%)         4  R00002 CRITICAL demo.c (12-14) 'lockA'");
    CHECK(parallel != std::string::npos);
    CHECK(critical != std::string::npos);
    CHECK(parallel < critical);
    CHECK_THAT(summary, Catch::Contains("      0.50 (16.7%)            outside any region"));
    CHECK_THAT(summary, Catch::Contains("6.25%  CriticalSectionContention"));
    CHECK_THAT(summary, Catch::Contains("      2.50 (83.3%)         2  (demo.c)"));
    CHECK_THAT(summary, Catch::Contains("synchronisation 0.25 (6.2%)"));
    CHECK_THAT(summary, Catch::Contains("Invariant check: clean"));
}

// The callgraph's numbers of each node line, in order: inclusive, exclusive.
std::vector<std::pair<double, double>> callgraph_values(const std::string& text) {
    std::istringstream in(text.substr(text.find("  Inclusive  (%)")));
    std::string row;
    std::getline(in, row);
    std::vector<std::pair<double, double>> values;
    while (std::getline(in, row) && !row.empty()) {
        double inclusive = 0, exclusive = 0;
        REQUIRE(std::sscanf(row.c_str(), "%lf (%*[^)]) %lf", &inclusive, &exclusive) == 2);
        values.emplace_back(inclusive, exclusive);
    }
    return values;
}

// A user region on thread 0 around the two-thread parallel region: in
// thread-seconds the parent is larger than its child, and the root is the
// sum of every exclusive time.
TEST_CASE("text callgraph: inclusive is the subtree's exclusive time over all threads", "[writers]") {
    model::Profile p = small_profile();
    model::Region user{3, model::RegionKind::UserRegion, std::string("outer"), {"demo.c", 5, 5}, {"demo.c", 30, 30}};
    p.regions.push_back(user);
    model::Node un;
    un.id = 1;
    un.parent = 0;
    un.kind = model::NodeKind::Region;
    un.region = 3;
    model::ThreadMetrics um;
    um.visits = 1;
    um.inclusive_s = 1.6;
    um.exclusive_s = 0.1;
    un.threads.push_back(um);
    for (auto& node : p.nodes) {
        if (node.id > 0) node.id += 1;
        if (node.parent && *node.parent > 0) *node.parent += 1;
    }
    p.nodes[1].parent = 1;  // the parallel region, now under the user region
    p.nodes.insert(p.nodes.begin() + 1, un);
    for (auto& node : p.nodes) {
        for (auto& pred : node.predecessors) pred.node = pred.node > 0 ? pred.node + 1 : 0;
    }

    const std::string text = writers::to_text(p);
    const auto values = callgraph_values(text);
    REQUIRE(values.size() == 4);  // root, user region, parallel region, critical
    CHECK(values[3].first == Approx(0.50));
    CHECK(values[2].first == Approx(2.50));  // 2 x 1.0 + 0.5
    CHECK(values[1].first == Approx(2.60));
    CHECK(values[0].first == Approx(3.10));  // every exclusive time: 0.5 + 0.1 + 2.0 + 0.5
    for (std::size_t i = 1; i < values.size(); ++i) CHECK(values[i - 1].first >= values[i].first);
    double exclusive_sum = 0;
    for (const auto& [inclusive, exclusive] : values) exclusive_sum += exclusive;
    CHECK(values[0].first == Approx(exclusive_sum));
    CHECK_THAT(text, Catch::Contains("Thread-seconds."));
}

TEST_CASE("report files: first free index, never overwritten", "[writers]") {
    const fs::path dir = fs::temp_directory_path() / fs::path("ompp-writers-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    writers::ReportRequest request{dir.string(), "app", 4, "", dir.string()};
    std::vector<std::string> messages;
    const auto first = writers::write_reports(request, "one", "{}", messages);
    const auto second = writers::write_reports(request, "two", "{}", messages);
    REQUIRE(first);
    REQUIRE(second);
    CHECK(first->text == (dir / "app.4-0.ompp.txt").string());
    CHECK(second->text == (dir / "app.4-1.ompp.txt").string());
    CHECK(second->json == (dir / "app.4-1.ompp.json").string());
    std::ifstream in(first->text);
    std::stringstream content;
    content << in.rdbuf();
    CHECK(content.str() == "one");
    CHECK(messages.empty());
    fs::remove_all(dir);
}

TEST_CASE("report files: an unwritable directory falls back, with one message", "[writers]") {
    const fs::path fallback = fs::temp_directory_path() / fs::path("ompp-fallback-" + std::to_string(::getpid()));
    fs::remove_all(fallback);
    fs::create_directories(fallback);
    // Below a regular file no directory can exist, not even for root.
    writers::ReportRequest request{"/dev/null/ompp", "app", 1, "", fallback.string()};
    std::vector<std::string> messages;
    const auto paths = writers::write_reports(request, "text", "{}", messages);
    REQUIRE(paths);
    CHECK(paths->text == (fallback / "app.1-0.ompp.txt").string());
    REQUIRE(messages.size() == 1);
    CHECK_THAT(messages[0], Catch::Contains("OMPP_OUTDIR=/dev/null/ompp"));
    CHECK(fs::exists(fallback / "app.1-0.ompp.json"));
    fs::remove_all(fallback);
}

TEST_CASE("report files: a missing OMPP_OUTDIR is created", "[writers]") {
    const fs::path base = fs::temp_directory_path() / fs::path("ompp-newdir-" + std::to_string(::getpid()));
    fs::remove_all(base);
    const fs::path dir = base / "runs" / "today";
    writers::ReportRequest request{dir.string(), "app", 2, "", fs::temp_directory_path().string()};
    std::vector<std::string> messages;
    const auto paths = writers::write_reports(request, "text", "{}", messages);
    REQUIRE(paths);
    CHECK(paths->text == (dir / "app.2-0.ompp.txt").string());
    CHECK(messages.empty());
    fs::remove_all(base);
}

namespace {

// A fresh, empty directory for one test, removed at its end.
struct ScratchDirectory {
    fs::path path;
    explicit ScratchDirectory(const std::string& name)
        : path(fs::temp_directory_path() / fs::path(name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDirectory() { fs::remove_all(path); }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(path)) names.push_back(entry.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
};

std::string read_all(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

}  // namespace

TEST_CASE("report files: planted links are skipped, never followed", "[writers]") {
    ScratchDirectory dir("ompp-planted");
    const fs::path victim = dir.path / "victim";
    std::ofstream(victim) << "precious";
    // Dangling links at both names of index 0, one at index 1's JSON, and a
    // link to the victim at index 2's control-flow graph.
    fs::create_symlink(dir.path / "nowhere" / "a", dir.path / "app.1-0.ompp.txt");
    fs::create_symlink(dir.path / "nowhere" / "b", dir.path / "app.1-0.ompp.json");
    fs::create_symlink(dir.path / "nowhere" / "c", dir.path / "app.1-1.ompp.json");
    fs::create_symlink(victim, dir.path / "app.1-2.ompp.cfg.dot");
    writers::ReportRequest request{dir.path.string(), "app", 1, "", dir.path.string()};
    std::vector<std::string> messages;
    const auto paths = writers::write_reports(request, "text", "{}", messages, {{".cfg.dot", "digraph {}"}});
    REQUIRE(paths);
    CHECK(paths->text == (dir.path / "app.1-3.ompp.txt").string());
    CHECK(read_all(dir.path / "app.1-3.ompp.json") == "{}");
    CHECK(read_all(dir.path / "app.1-3.ompp.cfg.dot") == "digraph {}");
    CHECK(read_all(victim) == "precious");
    CHECK_FALSE(fs::exists(dir.path / "nowhere"));
    CHECK(messages.empty());
}

TEST_CASE("report files: OMPP_REPORTFILE replaces a link there instead of following it", "[writers]") {
    ScratchDirectory dir("ompp-exact");
    const fs::path victim = dir.path / "victim";
    std::ofstream(victim) << "precious";
    fs::create_symlink(victim, dir.path / "mine.txt");
    fs::create_symlink(victim, dir.path / "mine.cfg.dot");
    writers::ReportRequest request{dir.path.string(), "app", 1, (dir.path / "mine.txt").string(), dir.path.string()};
    std::vector<std::string> messages;
    const auto paths = writers::write_reports(request, "text", "{}", messages, {{".cfg.dot", "digraph {}"}});
    REQUIRE(paths);
    CHECK(paths->json == (dir.path / "mine.json").string());
    CHECK_FALSE(fs::is_symlink(dir.path / "mine.txt"));
    CHECK(read_all(dir.path / "mine.txt") == "text");
    CHECK(read_all(dir.path / "mine.cfg.dot") == "digraph {}");
    CHECK(read_all(victim) == "precious");
}

TEST_CASE("report files: a failing write leaves nothing half-written, with one line per attempt", "[writers]") {
    ScratchDirectory dir("ompp-full");
    // A file-size limit makes write() fail with EFBIG, as a full disk fails
    // with ENOSPC, after part of the report is on disk.
    struct sigaction ignore {}, previous {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &ignore, &previous);
    rlimit old_limit{};
    getrlimit(RLIMIT_FSIZE, &old_limit);
    rlimit small = old_limit;
    small.rlim_cur = 4096;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    writers::ReportRequest request{dir.path.string(), "app", 1, "", dir.path.string()};
    std::vector<std::string> messages;
    const auto paths = writers::write_reports(request, std::string(100000, 'x'), "{}", messages);
    setrlimit(RLIMIT_FSIZE, &old_limit);
    sigaction(SIGXFSZ, &previous, nullptr);
    CHECK_FALSE(paths);
    CHECK(messages.size() == 2);  // the directory, then the fallback
    CHECK(dir.entries().empty());
}

TEST_CASE("report files: a very long application name is shortened, distinctly", "[writers]") {
    ScratchDirectory dir("ompp-long");
    const std::string a = std::string(300, 'a');
    const std::string b = std::string(299, 'a') + "b";
    writers::ReportRequest request{dir.path.string(), a, 1, "", dir.path.string()};
    std::vector<std::string> messages;
    const auto first = writers::write_reports(request, "one", "{}", messages);
    request.application = b;
    const auto second = writers::write_reports(request, "two", "{}", messages);
    REQUIRE(first);
    REQUIRE(second);
    CHECK(messages.empty());
    CHECK(fs::path(first->json).filename().string().size() <= 255);
    CHECK(fs::path(first->text).filename() != fs::path(second->text).filename());
    CHECK(first->text.ends_with("-0.ompp.txt"));
    CHECK(second->text.ends_with("-0.ompp.txt"));
}

TEST_CASE("report files: private in a world-writable directory", "[writers]") {
    ScratchDirectory dir("ompp-shared");
    fs::permissions(dir.path, fs::perms::all | fs::perms::sticky_bit);
    writers::ReportRequest request{dir.path.string(), "app", 1, "", dir.path.string()};
    std::vector<std::string> messages;
    const auto paths = writers::write_reports(request, "text", "{}", messages);
    REQUIRE(paths);
    const auto perms = fs::status(paths->text).permissions();
    CHECK((perms & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);
    CHECK(dir.entries().size() == 2);  // no temporary file left
}

TEST_CASE("report files: an MPI process's rank and world size are in its file names", "[writers][mpi]") {
    CHECK(writers::mpi_process_tag(1, 4) == "rank1-of-4");
    CHECK(writers::mpi_process_tag(3, 12) == "rank03-of-12");
    CHECK(writers::mpi_process_tag(0, 1) == "rank0-of-1");
    ScratchDirectory dir("ompp-ranks");
    std::vector<std::string> messages;
    for (int rank : {0, 1}) {
        writers::ReportRequest request{dir.path.string(), "app", 2, "", dir.path.string(),
                                       writers::mpi_process_tag(rank, 2)};
        REQUIRE(writers::write_reports(request, "rank " + std::to_string(rank), "{}", messages));
    }
    CHECK(dir.entries() == std::vector<std::string>{"app.rank0-of-2.2-0.ompp.json", "app.rank0-of-2.2-0.ompp.txt",
                                                    "app.rank1-of-2.2-0.ompp.json", "app.rank1-of-2.2-0.ompp.txt"});
    CHECK(read_all(dir.path / "app.rank1-of-2.2-0.ompp.txt") == "rank 1");
    CHECK(messages.empty());
}

TEST_CASE("report files: ranks given one OMPP_REPORTFILE each write their own file", "[writers][mpi]") {
    ScratchDirectory dir("ompp-ranks-exact");
    std::vector<std::string> messages;
    for (int rank : {0, 1}) {
        writers::ReportRequest request{dir.path.string(), "app", 2, (dir.path / "run.txt").string(),
                                       dir.path.string(), writers::mpi_process_tag(rank, 2)};
        REQUIRE(writers::write_reports(request, "rank " + std::to_string(rank), "{}", messages));
    }
    CHECK(dir.entries() ==
          std::vector<std::string>{"run.rank0-of-2.json", "run.rank0-of-2.txt", "run.rank1-of-2.json", "run.rank1-of-2.txt"});
    CHECK(read_all(dir.path / "run.rank0-of-2.txt") == "rank 0");
}

TEST_CASE("report files: temporary names taken by another process (another host on NFS) are skipped",
          "[writers][mpi]") {
    ScratchDirectory dir("ompp-taken-temps");
    char host[256] = {};
    REQUIRE(::gethostname(host, sizeof host - 1) == 0);
    // The next temporary names this process would use, with or without its host, taken.
    for (int n = 0; n < 5000; ++n) {
        std::ofstream(dir.path / fmt::format(".ompp-{}-{}-{}.tmp", host, ::getpid(), n)) << "other";
        std::ofstream(dir.path / fmt::format(".ompp-{}-{}.tmp", ::getpid(), n)) << "other";
    }
    // No fallback: a directory below a regular file cannot be made.
    std::ofstream(dir.path / "not-a-directory") << "";
    writers::ReportRequest request{dir.path.string(), "app", 2, "", (dir.path / "not-a-directory" / "x").string()};
    std::vector<std::string> messages;
    const auto paths = writers::write_reports(request, "text", "{}", messages);
    REQUIRE(paths);
    CHECK(paths->text == (dir.path / "app.2-0.ompp.txt").string());
    CHECK(read_all(paths->text) == "text");
    CHECK(messages.empty());
}
