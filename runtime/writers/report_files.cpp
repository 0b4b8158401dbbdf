#include "writers/report_files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace ompp::writers {
namespace {

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }

private:
    int fd_;
};

// 0 on success, else errno.
int write_all(int fd, const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        done += static_cast<std::size_t>(n);
    }
    return 0;
}

int write_file(const std::string& path, const std::string& data, int flags) {
    FileDescriptor fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644));
    if (fd.get() < 0) return errno;
    return write_all(fd.get(), data);
}

std::string json_path_for(const std::string& text_path) {
    constexpr std::string_view kTxt = ".txt";
    if (text_path.size() > kTxt.size() && text_path.ends_with(kTxt)) {
        return text_path.substr(0, text_path.size() - kTxt.size()) + ".json";
    }
    return text_path + ".json";
}

// An application name is a file name: no directories sneak in through it.
std::string file_name_safe(std::string name) {
    for (char& c : name) {
        if (c == '/') c = '_';
    }
    return name.empty() ? std::string("unknown") : name;
}

// Claims the first free index in `directory`; errno-style failure.
int write_numbered(const std::string& directory, const ReportRequest& request, const std::string& text,
                   const std::string& json, ReportPaths& paths) {
    const std::string dir = directory.empty() ? "." : directory;
    // Like a build's output directory, OMPP_OUTDIR may name one that does not
    // exist yet; a failure shows up as the open's errno below.
    std::error_code ignored;
    std::filesystem::create_directories(dir, ignored);
    for (unsigned index = 0; index < 100000; ++index) {
        const std::string stem = fmt::format("{}/{}.{}-{}.ompp", dir, file_name_safe(request.application), request.threads, index);
        paths = {stem + ".txt", stem + ".json"};
        if (::access(paths.json.c_str(), F_OK) == 0) continue;
        FileDescriptor fd(::open(paths.text.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
        if (fd.get() < 0) {
            if (errno == EEXIST) continue;
            return errno;
        }
        if (const int error = write_all(fd.get(), text)) return error;
        return write_file(paths.json, json, O_EXCL);
    }
    return EEXIST;
}

}  // namespace

std::optional<ReportPaths> write_reports(const ReportRequest& request, const std::string& text,
                                         const std::string& json, std::vector<std::string>& messages) {
    ReportPaths paths;
    if (!request.report_file.empty()) {
        paths = {request.report_file, json_path_for(request.report_file)};
        int error = write_file(paths.text, text, O_TRUNC);
        if (error == 0) error = write_file(paths.json, json, O_TRUNC);
        if (error == 0) return paths;
        messages.push_back(fmt::format("ompp: cannot write OMPP_REPORTFILE={} ({}); writing to {} instead",
                                       request.report_file, std::strerror(error), request.fallback_directory));
        error = write_numbered(request.fallback_directory, request, text, json, paths);
        if (error == 0) return paths;
        messages.push_back(fmt::format("ompp: cannot write the profile to {} either ({})",
                                       request.fallback_directory, std::strerror(error)));
        return std::nullopt;
    }
    int error = write_numbered(request.directory, request, text, json, paths);
    if (error == 0) return paths;
    messages.push_back(fmt::format("ompp: cannot write to OMPP_OUTDIR={} ({}); writing to {} instead",
                                   request.directory.empty() ? "." : request.directory, std::strerror(error),
                                   request.fallback_directory));
    error = write_numbered(request.fallback_directory, request, text, json, paths);
    if (error == 0) return paths;
    messages.push_back(
        fmt::format("ompp: cannot write the profile to {} either ({})", request.fallback_directory, std::strerror(error)));
    return std::nullopt;
}

}  // namespace ompp::writers
