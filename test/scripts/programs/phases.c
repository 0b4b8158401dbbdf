/* Three phases of the same parallel region, for the HTML report's over-time
 * view (run with OMPP_SNAPSHOT_INTERVAL and software counters):
 *   phase 0: a balanced loop;
 *   phase 1: the first half of the iterations takes four times as long
 *            (load imbalance at the loop's implicit barrier);
 *   phase 2: a longer critical section (waiting to enter it). */
#include <stdio.h>
#include <time.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void busy(double seconds) {
    volatile double x = 0;
    for (double end = now_s() + seconds; now_s() < end;) x += 1;
}

int main(void) {
    double total = 0;
    for (int phase = 0; phase < 3; ++phase) {
        for (int rep = 0; rep < 8; ++rep) {
#pragma omp parallel
            {
#pragma omp for schedule(static)
                for (int i = 0; i < 8; ++i) busy(phase == 1 && i < 4 ? 0.004 : 0.001);
#pragma omp critical(accumulate)
                {
                    busy(phase == 2 ? 0.003 : 0.0002);
                    total += 1;
                }
#pragma omp single
                busy(0.001);
            }
        }
    }
    printf("%g\n", total);
    return 0;
}
