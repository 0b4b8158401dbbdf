/* A full disk, simulated for tests and scripts/stress.sh where no small
 * tmpfs can be mounted: preloaded (LD_PRELOAD), it makes write() to regular
 * files fail with ENOSPC once ENOSPC_AFTER bytes (default 65536) went to
 * regular files, after a short write up to that limit, as a full disk does.
 * Pipes and terminals (stderr) are left alone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_size_t written;

ssize_t write(int fd, const void* data, size_t size) {
    static ssize_t (*real_write)(int, const void*, size_t);
    if (real_write == NULL) real_write = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
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
    return real_write(fd, data, size);
}
