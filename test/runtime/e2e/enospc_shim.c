/* A full disk, simulated for tests and scripts/stress.sh where no small
 * tmpfs can be mounted: preloaded (LD_PRELOAD), it makes write() to regular
 * files fail with ENOSPC once ENOSPC_AFTER bytes (default 65536) went to
 * regular files, after a short write up to that limit, as a full disk does.
 * Pipes and terminals (stderr) are left alone. libompp makes its write
 * system calls itself (runtime/platform/kernel_io.hpp), through syscall(),
 * so the shim wraps syscall(SYS_write, ...) as well. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_size_t written;

/* How many of `size` bytes to `fd` may still be written: all for pipes and
 * terminals, at most the rest of the limit for regular files; -1 (errno
 * ENOSPC) once the limit is reached. */
static ssize_t writable(int fd, size_t size) {
    struct stat status;
    if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode)) {
        const char* after = getenv("ENOSPC_AFTER");
        const size_t limit = after != NULL ? strtoull(after, NULL, 10) : 65536;
        const size_t before = atomic_fetch_add(&written, size);
        if (before >= limit) {
            errno = ENOSPC;
            return -1;
        }
        if (size > limit - before) size = limit - before;
    }
    return (ssize_t)size;
}

ssize_t write(int fd, const void* data, size_t size) {
    static ssize_t (*real_write)(int, const void*, size_t);
    if (real_write == NULL) real_write = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
    const ssize_t allowed = writable(fd, size);
    return allowed < 0 ? -1 : real_write(fd, data, (size_t)allowed);
}

long syscall(long number, ...) {
    static long (*real_syscall)(long, ...);
    if (real_syscall == NULL) real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    va_list arguments;
    va_start(arguments, number);
    long a[6];  /* as glibc's syscall() itself: six arguments, whatever the call passed */
    for (int i = 0; i < 6; ++i) a[i] = va_arg(arguments, long);
    va_end(arguments);
    if (number == SYS_write) {
        const ssize_t allowed = writable((int)a[0], (size_t)a[2]);
        if (allowed < 0) return -1;
        a[2] = allowed;
    }
    return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
