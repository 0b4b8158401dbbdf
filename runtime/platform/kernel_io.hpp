#pragma once

// kernel_io.hpp - the runtime's file I/O, made as system calls of its own.
//
// C has one namespace for functions, and programs do define read(), write(),
// open() or close() for their own purposes without including <unistd.h>
// (Rodinia's myocyte: `void read(char *filename, ...)`). Linked with libompp,
// whose libraries call these names, the executable exports its definitions,
// and every call to read() from libompp or libstdc++ (std::ifstream included)
// resolves to the program's function. A plain OpenMP build never sees this:
// libgomp and glibc's stdio use glibc's internal entry points. These wrappers
// reach the kernel whatever the program defines; they return what the libc
// functions of the same names return (-1 with errno set on failure).

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
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
