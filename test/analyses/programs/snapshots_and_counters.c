/* User regions with designed behaviour, for snapshots and software counters:
 *   spin  - ~100 ms of CPU work (cpu_time grows, few context switches)
 *   nap   - 100 ms asleep (cpu_time ~0, at least one voluntary switch)
 *   touch - first touch of 16 MiB (thousands of minor page faults)
 * Repeated `rounds` times (argv[1], default 1) with a labelled snapshot after
 * each round. */
#define OMPP_INSTRUMENTED 1
#include <pomp2/pomp2_user.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double sink;

int main(int argc, char** argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    for (int round = 0; round < rounds; ++round) {
        POMP_USER_REGION_BEGIN("spin");
        double start = now_s(), x = 0;
        while (now_s() - start < 0.1) x += 1e-9 * x + 1;
        sink = x;
        POMP_USER_REGION_END("spin");

        POMP_USER_REGION_BEGIN("nap");
        struct timespec ts = {0, 100000000L};
        while (nanosleep(&ts, &ts) != 0) {
        }
        POMP_USER_REGION_END("nap");

        POMP_USER_REGION_BEGIN("touch");
        size_t bytes = 16u << 20;
        char* block = malloc(bytes);
        for (size_t i = 0; i < bytes; i += 4096) block[i] = (char)i;
        sink = block[bytes / 2];
        free(block);
        POMP_USER_REGION_END("touch");

        char label[32];
        snprintf(label, sizeof label, "round %d", round + 1);
        POMP_USER_SNAPSHOT(label);
    }
    return 0;
}
