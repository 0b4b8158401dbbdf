/* sync_instances.c - ITERATIONS instances of one construct, for instruction
 * counts of a whole instrumented instance (scripts/instance-instructions.sh):
 *   sync_instances lock|critical|parallel|parallelfor ITERATIONS
 * Locks and critical sections run in a parallel region.  Run at
 * OMP_NUM_THREADS=1: no contention, only the cost of the path.  The
 * instances run in run_instances, which the script counts alone. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) long run_instances(const char* construct, long iterations) {
    long sum = 0;
    if (strcmp(construct, "lock") == 0) {
        omp_lock_t lock;
        omp_init_lock(&lock);
#pragma omp parallel
        for (long i = 0; i < iterations; ++i) {
            omp_set_lock(&lock);
            sum += i;
            omp_unset_lock(&lock);
        }
        omp_destroy_lock(&lock);
    } else if (strcmp(construct, "critical") == 0) {
#pragma omp parallel
        for (long i = 0; i < iterations; ++i) {
#pragma omp critical
            sum += i;
        }
    } else if (strcmp(construct, "parallel") == 0) {
        for (long i = 0; i < iterations; ++i) {
#pragma omp parallel
            {
#pragma omp atomic
                sum += i;
            }
        }
    } else {
        for (long i = 0; i < iterations; ++i) {
#pragma omp parallel for reduction(+ : sum)
            for (long j = 0; j < 4; ++j) sum += i + j;
        }
    }
    return sum;
}

int main(int argc, char** argv) {
    if (argc != 3 || (strcmp(argv[1], "lock") != 0 && strcmp(argv[1], "critical") != 0 &&
                      strcmp(argv[1], "parallel") != 0 && strcmp(argv[1], "parallelfor") != 0)) {
        fprintf(stderr, "usage: %s lock|critical|parallel|parallelfor ITERATIONS\n", argv[0]);
        return 2;
    }
    printf("%ld\n", run_instances(argv[1], strtol(argv[2], NULL, 10)));
    return 0;
}
