/* sync_instances.c - ITERATIONS instances of one synchronisation construct
 * in a parallel region, for instruction counts of a whole instrumented
 * instance (scripts/instance-instructions.sh):
 *   sync_instances lock|critical ITERATIONS
 * Run at OMP_NUM_THREADS=1: no contention, only the cost of the path. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
    if (argc != 3 || (strcmp(argv[1], "lock") != 0 && strcmp(argv[1], "critical") != 0)) {
        fprintf(stderr, "usage: %s lock|critical ITERATIONS\n", argv[0]);
        return 2;
    }
    const int lock = strcmp(argv[1], "lock") == 0;
    const long iterations = strtol(argv[2], NULL, 10);
    long sum = 0;
    omp_lock_t l;
    omp_init_lock(&l);
#pragma omp parallel
    {
        if (lock) {
            for (long i = 0; i < iterations; ++i) {
                omp_set_lock(&l);
                sum += i;
                omp_unset_lock(&l);
            }
        } else {
            for (long i = 0; i < iterations; ++i) {
#pragma omp critical
                sum += i;
            }
        }
    }
    omp_destroy_lock(&l);
    printf("%ld\n", sum);
    return 0;
}
