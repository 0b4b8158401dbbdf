/* nest_locks.c - OpenMP 3.0 nest-lock semantics through libompp's lock
 * wrappers, declared as ompp-instrument declares them (with the type of the
 * omp_* function they replace).  libgomp exports OpenMP 2.5 and 3.0
 * versions of its nest-lock functions (omp_test_nest_lock@OMP_1.0 and
 * @@OMP_3.0, other layouts); the wrappers must reach the 3.0 ones the plain
 * program binds.  Exits non-zero, naming the failed check, when a result
 * differs. */
#include <pomp2/pomp2_locks.h>
#include <stdio.h>

static omp_nest_lock_t nest;

static int expect(int got, int want, const char *what) {
    if (got == want) return 0;
    fprintf(stderr, "nest_locks: %s returned %d, expected %d\n", what, got, want);
    return 1;
}

int main(void) {
    int failures = 0;
    omp_lock_t plain;
    POMP2_Init_lock(&plain);
    failures += expect(POMP2_Test_lock(&plain), 1, "omp_test_lock on a free lock");
    POMP2_Unset_lock(&plain);
    POMP2_Destroy_lock(&plain);

    POMP2_Init_nest_lock(&nest);
#pragma omp parallel num_threads(2) reduction(+ : failures)
    {
        const int owner = omp_get_thread_num() == 0;
        if (omp_get_num_threads() != 2) {
            failures += expect(omp_get_num_threads(), 2, "omp_get_num_threads");
        } else {
            if (owner) {
                failures += expect(POMP2_Test_nest_lock(&nest), 1, "first omp_test_nest_lock");
                POMP2_Set_nest_lock(&nest);
                failures += expect(POMP2_Test_nest_lock(&nest), 3, "nested omp_test_nest_lock");
            }
#pragma omp barrier
            if (!owner) failures += expect(POMP2_Test_nest_lock(&nest), 0, "omp_test_nest_lock of a held lock");
#pragma omp barrier
            if (owner) {
                POMP2_Unset_nest_lock(&nest);
                POMP2_Unset_nest_lock(&nest);
                POMP2_Unset_nest_lock(&nest);
            }
#pragma omp barrier
            if (!owner) {
                failures += expect(POMP2_Test_nest_lock(&nest), 1, "omp_test_nest_lock after release");
                POMP2_Unset_nest_lock(&nest);
            }
        }
    }
    POMP2_Destroy_nest_lock(&nest);
    if (failures == 0) puts("nest locks: ok");
    return failures;
}
