// report_files.hpp - where the reports go: <dir>/<app>.<threads>-<i>.ompp.txt
// and .ompp.json (and side files such as .ompp.cfg.dot; an MPI process:
// <app>.rank<R>-of-<N>.<threads>-<i>.ompp.txt) with the first <i>
// at which none of the names is taken, by anything, dangling links included,
// or the exact OMPP_REPORTFILE path.  An unwritable directory falls back to
// /tmp.  Every file is written under a temporary name in its directory
// (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600 in world-writable directories) and
// renamed into place when complete, the JSON before the text, never
// replacing anything at numbered names: a full disk, a failing write or a
// kill during the write never leaves a half-written report, or a text
// report without its JSON, and a planted link never redirects a write.
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
    // An MPI process's mpi_process_tag(): in every name, so that ranks
    // sharing OMPP_OUTDIR (or OMPP_REPORTFILE) never share a file.
    std::string process_tag = {};
};

// "rank<R>-of-<N>", R zero-padded to the width of N-1 so that the files
// of one run list in rank order.
std::string mpi_process_tag(int rank, int size);

// A file beside the report: <stem><suffix>.
struct SideFile {
    std::string suffix;  // ".cfg.dot"
    std::string data;
};

struct ReportPaths {
    std::string text;
    std::string json;
    std::string stem;  // the paths without .txt/.json: side outputs written later (the trace) take it
};

// Writes both reports and the side files.  Problems (one line each) are
// appended to `messages`; nullopt if the report could not be written (a side
// file that cannot be written costs only its message).
std::optional<ReportPaths> write_reports(const ReportRequest& request, const std::string& text,
                                         const std::string& json, std::vector<std::string>& messages,
                                         const std::vector<SideFile>& side_files = {});

}  // namespace ompp::writers
