#include "deadlock/code_location.hpp"

#include "platform/kernel_io.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>

#include <fmt/format.h>

extern char** environ;

namespace ompp::deadlock {
namespace {

// addr2line's output for `offset` in `object`: the function, a newline,
// file:line; empty if it could not be run.
std::string addr2line(const std::string& object, std::uintptr_t offset) {
    int pipe_ends[2];
    if (platform::kernel_io::pipe2(pipe_ends, O_CLOEXEC) != 0) return {};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", 0, 0);
    const std::string address = fmt::format("0x{:x}", offset);
    const char* argv[] = {"addr2line", "-f", "-e", object.c_str(), address.c_str(), nullptr};
    pid_t child = 0;
    const int spawned = posix_spawnp(&child, "addr2line", &actions, nullptr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    platform::kernel_io::close(pipe_ends[1]);
    std::string out;
    if (spawned == 0) {
        char buffer[512];
        ssize_t n = 0;
        while ((n = platform::kernel_io::read(pipe_ends[0], buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<std::size_t>(n));
        int status = 0;
        platform::kernel_io::waitpid(child, &status, 0);
    }
    platform::kernel_io::close(pipe_ends[0]);
    return out;
}

}  // namespace

std::string code_location(const void* address) {
    Dl_info info{};
    if (address == nullptr || ::dladdr(address, &info) == 0 || info.dli_fbase == nullptr)
        return fmt::format("{}", address);
    // The main program has no name in the link map.
    const std::string object =
        info.dli_fname != nullptr && info.dli_fname[0] != '\0' ? info.dli_fname : "/proc/self/exe";
    // Addresses in a position-independent object are relative to its base;
    // the return address is the instruction after the call.
    const auto* header = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
    const std::uintptr_t base =
        header->e_type == ET_DYN ? reinterpret_cast<std::uintptr_t>(info.dli_fbase) : 0;
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(address) - 1 - base;
    const std::string found = addr2line(object, offset);
    const auto newline = found.find('\n');
    const std::string function = found.substr(0, newline);
    std::string line = newline == std::string::npos ? std::string() : found.substr(newline + 1);
    line = line.substr(0, line.find_first_of(" \n"));  // no " (discriminator N)"
    if (!line.empty() && !line.starts_with("??") && !line.ends_with(":0") && !line.ends_with(":?")) return line;
    // Without debug information, or a call the optimiser merged with others.
    const std::string place = fmt::format("{}+0x{:x}", object, offset);
    return function.empty() || function == "??" ? place : fmt::format("{} in {} (no line known)", place, function);
}

}  // namespace ompp::deadlock
