// ompp-trace: reads an OMPP_TRACE archive (<stem>.otf2) through the OTF2
// reader library.
//
//   ompp-trace stats ARCHIVE              event counts and consistency (JSON; exit 1 if inconsistent)
//   ompp-trace perfetto ARCHIVE [-o OUT]  Chrome/Perfetto trace JSON (ui.perfetto.dev)
//   ompp-trace graph ARCHIVE [--lines N] [--dot OUT] [--json OUT]
//                                         critical path of the execution graph (its N longest lines,
//                                         default 200, 0: all); the graph in Graphviz; both as JSON
//                                         (ompp-view html's execution graph view)
#include <charconv>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "graph.hpp"

namespace {

constexpr const char* kUsage =
    "usage: ompp-trace stats ARCHIVE\n"
    "       ompp-trace perfetto ARCHIVE [-o OUT.json]\n"
    "       ompp-trace graph ARCHIVE [--lines N] [--dot OUT.dot] [--json OUT.json]\n"
    "ARCHIVE: the <stem>.otf2 directory OMPP_TRACE=1 writes beside the profile, or its traces.otf2\n";

// Runs `write` on OUTPUT (stdout when empty), failing with the file's name.
template <typename Write>
void to_output(const std::string& output, Write write) {
    if (output.empty()) {
        write(std::cout);
        return;
    }
    std::ofstream file(output);
    if (!file) throw std::runtime_error(output + ": cannot write (" + std::strerror(errno) + ")");
    write(file);
    if (!file.flush()) throw std::runtime_error(output + ": write failed");
}

}  // namespace

int main(int argc, char** argv) {
    using namespace ompp::trace_tool;
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() < 2) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string& command = args[0];
    std::string output;       // perfetto -o, graph --dot
    std::string json_output;  // graph --json
    std::string lines = "200";  // graph --lines
    for (std::size_t i = 2; i < args.size(); ++i) {
        std::string* file = command == "perfetto" && args[i] == "-o"    ? &output
                            : command == "graph" && args[i] == "--dot"   ? &output
                            : command == "graph" && args[i] == "--json"  ? &json_output
                            : command == "graph" && args[i] == "--lines" ? &lines
                                                                          : nullptr;
        if (file == nullptr || i + 1 >= args.size()) {
            std::cerr << "ompp-trace: " << command << ": unexpected argument '" << args[i] << "'\n" << kUsage;
            return 2;
        }
        *file = args[++i];
    }
    try {
        if (command == "stats") {
            return write_stats(read_trace(args[1]), std::cout) == 0 ? 0 : 1;
        }
        if (command == "perfetto") {
            const Trace trace = read_trace(args[1]);
            to_output(output, [&](std::ostream& out) { write_perfetto(trace, out); });
            if (!output.empty()) std::cerr << "ompp-trace: wrote " << output << " (open it in ui.perfetto.dev)\n";
            return 0;
        }
        if (command == "graph") {
            std::size_t max_lines = 0;
            const auto [end, error] = std::from_chars(lines.data(), lines.data() + lines.size(), max_lines);
            if (error != std::errc() || end != lines.data() + lines.size()) {
                std::cerr << "ompp-trace: graph: --lines wants a number of lines (0: all), not '" << lines << "'\n";
                return 2;
            }
            const Trace trace = read_trace(args[1]);
            const ExecutionGraph graph(trace);
            const std::vector<PathStep> path = graph.critical_path();
            graph.write_path_text(path, max_lines, std::cout);
            if (!output.empty()) to_output(output, [&](std::ostream& out) { graph.write_dot(out); });
            if (!json_output.empty()) to_output(json_output, [&](std::ostream& out) { graph.write_json(path, out); });
            return 0;
        }
    } catch (const std::exception& error) {
        std::cerr << "ompp-trace: " << error.what() << "\n";
        return 1;
    }
    std::cerr << "ompp-trace: unknown command '" << command << "'\n" << kUsage;
    return 2;
}
