#include "writers/report_files.hpp"

#include "platform/kernel_io.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace ompp::writers {
namespace {

// 0 on success, else errno.
int write_all(int fd, const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = platform::kernel_io::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        done += static_cast<std::size_t>(n);
    }
    return 0;
}

// Whether anything (a dangling symlink too) is at `path`.
bool occupied(const std::string& path) {
    struct stat info {};
    return platform::kernel_io::lstat(path.c_str(), &info) == 0 || errno != ENOENT;
}

// Files in a directory others may write to (/tmp) are for our eyes only.
mode_t file_mode(const std::string& directory) {
    struct stat info {};
    const bool shared = platform::kernel_io::stat(directory.c_str(), &info) == 0 && (info.st_mode & S_IWOTH) != 0;
    return shared ? 0600 : 0644;
}

constexpr int kTempAttempts = 100000;

std::string host_name() {
    char name[256] = {};
    if (platform::kernel_io::gethostname(name, sizeof name) != 0 || name[0] == '\0') return "host";
    std::string host(name);
    for (char& c : host) {
        if (c == '/') c = '_';
    }
    return host;
}

// One file written completely under a temporary name of its own in the
// target directory (created exclusively, links not followed), then put in
// place by a rename: nobody ever sees it half-written, and a failure or a
// kill during the write leaves nothing at the final name.  Removed unless
// placed.
class TempFile {
public:
    TempFile() = default;
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() {
        if (!path_.empty()) platform::kernel_io::unlink(path_.c_str());
    }

    // 0 or errno.  The name holds host and process; a name taken anyway
    // (processes of one id on two hosts sharing a network file system,
    // a stale file) is skipped, never opened.
    int write(const std::string& directory, const std::string& data) {
        static std::atomic<unsigned> counter{0};
        static const std::string host = host_name();
        int fd = -1;
        for (int attempt = 0; fd < 0 && attempt < kTempAttempts; ++attempt) {
            path_ = fmt::format("{}/.ompp-{}-{}-{}.tmp", directory, host, platform::kernel_io::getpid(), counter.fetch_add(1));
            fd = platform::kernel_io::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, file_mode(directory));
            if (fd < 0 && errno != EEXIST) break;
        }
        if (fd < 0) {
            path_.clear();
            return errno;
        }
        int error = write_all(fd, data);
        if (platform::kernel_io::close(fd) != 0 && error == 0) error = errno;  // NFS reports a full disk here
        return error;
    }

    // 0, EEXIST (`path` is taken and `replace` is off) or errno.  Replacing
    // renames over `path`: a symlink there is replaced, never followed.
    int place(const std::string& path, bool replace) {
        int result = replace ? platform::kernel_io::rename(path_.c_str(), path.c_str())
                             : platform::kernel_io::renameat2(path_.c_str(), path.c_str(), RENAME_NOREPLACE);
        if (result != 0 && !replace && (errno == EINVAL || errno == ENOSYS)) {
            // No RENAME_NOREPLACE on this file system: a hard link never replaces either.
            result = platform::kernel_io::link(path_.c_str(), path.c_str());
            if (result == 0) platform::kernel_io::unlink(path_.c_str());
        }
        if (result != 0) return errno;
        path_.clear();
        return 0;
    }

private:
    std::string path_;
};

std::string json_path_for(const std::string& text_path) {
    constexpr std::string_view kTxt = ".txt";
    if (text_path.size() > kTxt.size() && text_path.ends_with(kTxt)) {
        return text_path.substr(0, text_path.size() - kTxt.size()) + ".json";
    }
    return text_path + ".json";
}

std::string directory_of(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// An application name is a file name: no directories sneak in through it,
// and with ompp's suffixes it stays within NAME_MAX (255): a long one keeps
// its start and gets a hash of the whole, so names stay distinct.
std::string file_name_safe(std::string name) {
    constexpr std::size_t kLongest = 160;
    constexpr std::size_t kKept = kLongest - 17;  // '-' and 16 hex digits
    for (char& c : name) {
        if (c == '/') c = '_';
    }
    if (name.empty()) return "unknown";
    if (name.size() <= kLongest) return name;
    std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a
    for (unsigned char c : name) hash = (hash ^ c) * 0x100000001b3ULL;
    return fmt::format("{}-{:016x}", name.substr(0, kKept), hash);
}

// The report's files, JSON first: a text report never appears without
// its JSON.  Side files go last; losing one does not lose the report.
struct Output {
    std::string suffix;  // after the stem: ".json", ".txt", ".cfg.dot"
    const std::string* data;
    bool essential;
};

std::vector<Output> outputs_of(const std::string& text, const std::string& json, const std::vector<SideFile>& side) {
    std::vector<Output> outputs{{".json", &json, true}, {".txt", &text, true}};
    for (const SideFile& file : side) outputs.push_back({file.suffix, &file.data, false});
    return outputs;
}

// Writes every output to a temporary file in `directory`; errno-style.
int write_temps(const std::string& directory, const std::vector<Output>& outputs, std::vector<TempFile>& temps) {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        if (const int error = temps[i].write(directory, *outputs[i].data)) return error;
    }
    return 0;
}

// Claims the first index in `directory` at which none of the names is
// taken (planted files and dangling links included); errno-style failure.
int write_numbered(const std::string& directory, const ReportRequest& request, const std::vector<Output>& outputs,
                   ReportPaths& paths, std::vector<std::string>& messages) {
    const std::string dir = directory.empty() ? "." : directory;
    // Like a build's output directory, OMPP_OUTDIR may name one that does not
    // exist yet; a failure shows up as the temporary file's errno below.
    platform::kernel_io::create_directories(dir);
    std::vector<TempFile> temps(outputs.size());
    if (const int error = write_temps(dir, outputs, temps)) return error;
    for (unsigned index = 0; index < 100000; ++index) {
        const std::string process = request.process_tag.empty() ? "" : request.process_tag + ".";
        const std::string stem = fmt::format("{}/{}.{}{}-{}.ompp", dir, file_name_safe(request.application), process,
                                             request.threads, index);
        bool free = true;
        for (const Output& output : outputs) free = free && !occupied(stem + output.suffix);
        if (!free) continue;
        std::vector<std::string> placed;
        int error = 0;
        for (std::size_t i = 0; i < outputs.size() && error == 0; ++i) {
            const std::string path = stem + outputs[i].suffix;
            error = temps[i].place(path, false);
            if (error == 0) {
                placed.push_back(path);
            } else if (!outputs[i].essential && error != EEXIST) {
                messages.push_back(fmt::format("ompp: could not write {} ({})", path, std::strerror(error)));
                error = 0;
            }
        }
        if (error == 0) {
            paths = {stem + ".txt", stem + ".json", stem};
            return 0;
        }
        // Taken meanwhile by another process, or failing: undo, so that no
        // index is left with half of a report, and try the next one.
        for (const std::string& path : placed) platform::kernel_io::unlink(path.c_str());
        if (error != EEXIST) return error;
        temps = std::vector<TempFile>(outputs.size());
        if (const int rewrite = write_temps(dir, outputs, temps)) return rewrite;
    }
    return EEXIST;
}

// OMPP_REPORTFILE: the exact path, replaced if it exists.
int write_exact(const std::string& text_path, const std::vector<Output>& outputs, ReportPaths& paths,
                std::vector<std::string>& messages) {
    const std::string stem = text_path.ends_with(".txt") ? text_path.substr(0, text_path.size() - 4) : text_path;
    paths = {text_path, json_path_for(text_path), stem};
    std::vector<TempFile> temps(outputs.size());
    if (const int error = write_temps(directory_of(text_path), outputs, temps)) return error;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string path = outputs[i].suffix == ".txt"    ? paths.text
                                 : outputs[i].suffix == ".json" ? paths.json
                                                                : stem + outputs[i].suffix;
        if (const int error = temps[i].place(path, true)) {
            if (outputs[i].essential) return error;
            messages.push_back(fmt::format("ompp: could not write {} ({})", path, std::strerror(error)));
        }
    }
    return 0;
}

// OMPP_REPORTFILE of an MPI process: the tag before the extension
// (out.txt -> out.rank1-of-4.txt), in the file's name, not its directory.
std::string tagged_report_file(const std::string& path, const std::string& tag) {
    if (tag.empty()) return path;
    const std::size_t name = path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1;
    const std::size_t dot = path.rfind('.');
    if (dot == std::string::npos || dot <= name) return path + "." + tag;
    return path.substr(0, dot) + "." + tag + path.substr(dot);
}

}  // namespace

std::string mpi_process_tag(int rank, int size) {
    const int width = static_cast<int>(fmt::formatted_size("{}", size > 1 ? size - 1 : 0));
    return fmt::format("rank{:0{}}-of-{}", rank, width, size);
}

std::optional<ReportPaths> write_reports(const ReportRequest& request, const std::string& text,
                                         const std::string& json, std::vector<std::string>& messages,
                                         const std::vector<SideFile>& side_files) {
    const std::vector<Output> outputs = outputs_of(text, json, side_files);
    ReportPaths paths;
    if (!request.report_file.empty()) {
        const std::string report_file = tagged_report_file(request.report_file, request.process_tag);
        int error = write_exact(report_file, outputs, paths, messages);
        if (error == 0) return paths;
        messages.push_back(fmt::format("ompp: cannot write OMPP_REPORTFILE={} ({}); writing to {} instead",
                                       report_file, std::strerror(error), request.fallback_directory));
        error = write_numbered(request.fallback_directory, request, outputs, paths, messages);
        if (error == 0) return paths;
        messages.push_back(fmt::format("ompp: cannot write the profile to {} either ({})",
                                       request.fallback_directory, std::strerror(error)));
        return std::nullopt;
    }
    int error = write_numbered(request.directory, request, outputs, paths, messages);
    if (error == 0) return paths;
    messages.push_back(fmt::format("ompp: cannot write to OMPP_OUTDIR={} ({}); writing to {} instead",
                                   request.directory.empty() ? "." : request.directory, std::strerror(error),
                                   request.fallback_directory));
    error = write_numbered(request.fallback_directory, request, outputs, paths, messages);
    if (error == 0) return paths;
    messages.push_back(
        fmt::format("ompp: cannot write the profile to {} either ({})", request.fallback_directory, std::strerror(error)));
    return std::nullopt;
}

}  // namespace ompp::writers
