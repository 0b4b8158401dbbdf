// report_files.hpp - where the reports go: <dir>/<app>.<threads>-<i>.ompp.txt
// and .ompp.json with the first <i> for which neither exists (created
// exclusively, so concurrent runs never overwrite each other), or the exact
// OMPP_REPORTFILE path.  An unwritable directory falls back to /tmp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ompp::writers {

struct ReportRequest {
    std::string directory;    // OMPP_OUTDIR
    std::string application;  // OMPP_APPNAME or the program's name
    std::uint32_t threads = 1;
    std::string report_file;  // OMPP_REPORTFILE; empty: numbered names
    std::string fallback_directory = "/tmp";
};

struct ReportPaths {
    std::string text;
    std::string json;
};

// Writes both reports.  Problems (one line each) are appended to `messages`;
// nullopt if nothing could be written.
std::optional<ReportPaths> write_reports(const ReportRequest& request, const std::string& text,
                                         const std::string& json, std::vector<std::string>& messages);

}  // namespace ompp::writers
