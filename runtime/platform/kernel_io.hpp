#pragma once

// kernel_io.hpp - the runtime's file and process calls, made as system
// calls of its own.
//
// C has one namespace for functions, and programs do define read(), write(),
// open(), stat(), pipe() or link() for their own purposes without including
// <unistd.h> (Rodinia's myocyte: `void read(char *filename, ...)`). Linked
// with libompp, whose libraries call these names, the executable exports its
// definitions, and every call to read() from libompp or libstdc++
// (std::ifstream, std::filesystem included) resolves to the program's
// function. A plain OpenMP build never sees this: libgomp and glibc's stdio
// use glibc's internal entry points. These wrappers reach the kernel whatever
// the program defines; they return what the libc functions of the same names
// return (-1 with errno set on failure). Names ISO C reserves (time, raise,
// getenv...) and POSIX's posix_* names stay libc's: no program may define
// them.

#include <fcntl.h>
#include <sys/random.h>  // GRND_NONBLOCK
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>  // timespec
#include <string>

namespace ompp::platform::kernel_io {

inline int open(const char* path, int flags, mode_t mode = 0) {
    return static_cast<int>(::syscall(SYS_openat, AT_FDCWD, path, flags, mode));
}

inline int close(int fd) { return static_cast<int>(::syscall(SYS_close, fd)); }

inline ssize_t read(int fd, void* buffer, std::size_t bytes) { return ::syscall(SYS_read, fd, buffer, bytes); }

inline ssize_t write(int fd, const void* data, std::size_t bytes) { return ::syscall(SYS_write, fd, data, bytes); }

inline ssize_t pread(int fd, void* buffer, std::size_t bytes, off_t offset) {
    return ::syscall(SYS_pread64, fd, buffer, bytes, offset);
}

inline ssize_t pwrite(int fd, const void* data, std::size_t bytes, off_t offset) {
    return ::syscall(SYS_pwrite64, fd, data, bytes, offset);
}

// glibc's struct stat is the kernel's on the 64-bit targets libompp builds
// for (newfstatat fills it, as glibc's own stat() does).
inline int stat(const char* path, struct stat* info) {
    return static_cast<int>(::syscall(SYS_newfstatat, AT_FDCWD, path, info, 0));
}

inline int lstat(const char* path, struct stat* info) {
    return static_cast<int>(::syscall(SYS_newfstatat, AT_FDCWD, path, info, AT_SYMLINK_NOFOLLOW));
}

inline int mkdir(const char* path, mode_t mode) { return static_cast<int>(::syscall(SYS_mkdirat, AT_FDCWD, path, mode)); }

inline int unlink(const char* path) { return static_cast<int>(::syscall(SYS_unlinkat, AT_FDCWD, path, 0)); }

inline int renameat2(const char* from, const char* to, unsigned flags) {
    return static_cast<int>(::syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags));
}

// renameat2 without flags where the kernel predates it (Linux < 3.15).
inline int rename(const char* from, const char* to) {
    const int result = renameat2(from, to, 0);
    if (result != 0 && errno == ENOSYS) return static_cast<int>(::syscall(SYS_renameat, AT_FDCWD, from, AT_FDCWD, to));
    return result;
}

inline int link(const char* from, const char* to) {
    return static_cast<int>(::syscall(SYS_linkat, AT_FDCWD, from, AT_FDCWD, to, 0));
}

inline ssize_t readlink(const char* path, char* buffer, std::size_t size) {
    return ::syscall(SYS_readlinkat, AT_FDCWD, path, buffer, size);
}

inline int pipe2(int ends[2], int flags) { return static_cast<int>(::syscall(SYS_pipe2, ends, flags)); }

inline pid_t getpid() { return static_cast<pid_t>(::syscall(SYS_getpid)); }

inline pid_t waitpid(pid_t child, int* status, int options) {
    return static_cast<pid_t>(::syscall(SYS_wait4, child, status, options, nullptr));
}

inline int nanosleep(const timespec* pause, timespec* left) {
    return static_cast<int>(::syscall(SYS_nanosleep, pause, left));
}

// The node name, as gethostname() gives it (truncated to `size` - 1).
inline int gethostname(char* name, std::size_t size) {
    utsname system{};
    if (::syscall(SYS_uname, &system) != 0) return -1;
    const std::size_t length = std::min(std::strlen(system.nodename), size - 1);
    std::memcpy(name, system.nodename, length);
    name[length] = '\0';
    return 0;
}

// mkostemp(): the trailing "XXXXXX" of `path` replaced by random letters and
// digits until a file of that name is created (read-write, 0600, exclusive,
// with `flags`); its descriptor, or -1 with errno set.
inline int mkostemp(char* path, int flags) {
    static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    constexpr std::size_t kRandom = 6;
    constexpr int kAttempts = 1000;
    const std::size_t length = std::strlen(path);
    if (length < kRandom || std::strcmp(path + length - kRandom, "XXXXXX") != 0) {
        errno = EINVAL;
        return -1;
    }
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        unsigned char bytes[kRandom];
        if (::syscall(SYS_getrandom, bytes, sizeof bytes, GRND_NONBLOCK) != static_cast<long>(sizeof bytes)) {
            // No entropy yet (early boot): the process, the (randomised)
            // stack address and the attempt still make distinct names.
            std::uint64_t mix = (reinterpret_cast<std::uintptr_t>(bytes) ^ static_cast<std::uint64_t>(getpid())) *
                                    0x9e3779b97f4a7c15ULL +
                                static_cast<std::uint64_t>(attempt);
            for (unsigned char& byte : bytes) byte = static_cast<unsigned char>(mix >>= 8);
        }
        for (std::size_t i = 0; i < kRandom; ++i) path[length - kRandom + i] = kLetters[bytes[i] % (sizeof kLetters - 1)];
        const int fd = open(path, O_RDWR | O_CREAT | O_EXCL | flags, 0600);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

// std::filesystem::create_directories() (libstdc++ calls stat() and mkdir()
// by their names): `path` and the directories above it, created 0777 less
// the umask where missing; errors are ignored (the caller's next open()
// reports them).
inline void create_directories(const std::string& path) {
    for (std::size_t slash = path.find('/', 1); ; slash = path.find('/', slash + 1)) {
        const std::string prefix = path.substr(0, slash);
        if (!prefix.empty()) mkdir(prefix.c_str(), 0777);
        if (slash == std::string::npos) return;
    }
}

// The whole of a (small, e.g. /proc) file; empty if it cannot be read.
inline std::string read_file(const char* path) {
    std::string text;
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return text;
    char chunk[4096];
    for (;;) {
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(chunk, static_cast<std::size_t>(n));
    }
    close(fd);
    return text;
}

}  // namespace ompp::platform::kernel_io
