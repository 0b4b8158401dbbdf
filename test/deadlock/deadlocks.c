/* Deadlocks for OMPP_DEADLOCK (test_deadlock.py), one per case, at 2
 * threads: `deadlocks CASE`.  A line marked "expect: CASE waits" must be
 * named (file:line) in a thread's wait in the report of CASE, one marked
 * "expect: CASE holds" in what a thread holds.  The cases named correct_* end
 * normally and must never be reported. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

/* Both threads hold their first lock before either asks for its second;
 * not an OpenMP construct, so the watchdog sees no barrier here. */
static int arrived;
static void rendezvous(int round) {
    __atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < 2 * round) {
    }
}

static void lock_order(void) {
    omp_lock_t a, b;
    omp_init_lock(&a);
    omp_init_lock(&b);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            omp_set_lock(&a); /* expect: lock_order holds */
            rendezvous(1);
            omp_set_lock(&b); /* expect: lock_order waits */
        } else {
            omp_set_lock(&b); /* expect: lock_order holds */
            rendezvous(1);
            omp_set_lock(&a); /* expect: lock_order waits */
        }
    }
}

static void critical_lock(void) {
    omp_lock_t l;
    omp_init_lock(&l);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp critical(guard) /* expect: critical_lock holds */
            {
                rendezvous(1);
                omp_set_lock(&l); /* expect: critical_lock waits */
            }
        } else {
            omp_set_lock(&l); /* expect: critical_lock holds */
            rendezvous(1);
#pragma omp critical(guard) /* expect: critical_lock waits */
            {
                omp_unset_lock(&l);
            }
        }
    }
}

static void barrier_branch(void) {
#pragma omp parallel num_threads(2) /* expect: barrier_branch waits */
    {
        if (omp_get_thread_num() == 0) {
#pragma omp barrier /* expect: barrier_branch waits */
        }
    }
}

static void nest_lock_other_thread(void) {
    omp_nest_lock_t n;
    omp_init_nest_lock(&n);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            omp_set_nest_lock(&n); /* expect: nest_lock_other_thread holds */
            omp_set_nest_lock(&n);
        }
#pragma omp barrier
        if (omp_get_thread_num() == 1) omp_set_nest_lock(&n); /* expect: nest_lock_other_thread waits */
#pragma omp barrier /* expect: nest_lock_other_thread waits */
    }
}

/* The same shapes, correct: one lock order, the nest lock re-entered by its
 * owner and released before the barrier, every barrier reached by all. */
static void correct_locks(void) {
    omp_lock_t a, b;
    omp_nest_lock_t n;
    omp_init_lock(&a);
    omp_init_lock(&b);
    omp_init_nest_lock(&n);
    long sum = 0;
#pragma omp parallel num_threads(2)
    for (int i = 0; i < 2000; ++i) {
        omp_set_lock(&a);
        omp_set_lock(&b);
        ++sum;
        omp_unset_lock(&b);
        omp_unset_lock(&a);
#pragma omp critical(guard)
        {
            omp_set_lock(&a);
            omp_set_nest_lock(&n);
            omp_set_nest_lock(&n);
            ++sum;
            omp_unset_nest_lock(&n);
            omp_unset_nest_lock(&n);
            omp_unset_lock(&a);
        }
        if (i % 100 == 0) {
#pragma omp barrier
        }
    }
    omp_destroy_lock(&a);
    omp_destroy_lock(&b);
    omp_destroy_nest_lock(&n);
    printf("%ld\n", sum);
}

/* A thread at a barrier runs tasks that take a lock the other thread waits
 * for on its way to the barrier; a thread holds a lock across a barrier
 * while nobody wants it; a long wait for a lock whose holder works. */
static void correct_waits(void) {
    omp_lock_t l;
    omp_init_lock(&l);
    long sum = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single nowait
        for (int t = 0; t < 50; ++t) {
#pragma omp task
            {
                omp_set_lock(&l);
                for (volatile int spin = 0; spin < 100000; ++spin) {
                }
                ++sum;
                omp_unset_lock(&l);
            }
        }
        omp_set_lock(&l);
        ++sum;
        omp_unset_lock(&l);
#pragma omp barrier
        if (omp_get_thread_num() == 0) omp_set_lock(&l);
#pragma omp barrier
        if (omp_get_thread_num() == 0) {
            for (volatile long spin = 0; spin < 300000000L; ++spin) {
            }
            omp_unset_lock(&l);
        } else {
            omp_set_lock(&l);
            omp_unset_lock(&l);
        }
    }
    omp_destroy_lock(&l);
    printf("%ld\n", sum);
}

/* Cancellation: a thread leaves the region from a cancellation point
 * (without its end events) while the other waits at a barrier, which the
 * cancellation releases; the program goes on without events for a while. */
static void correct_cancel(void) {
    for (int canceller = 0; canceller < 2; ++canceller) {
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == canceller) {
                for (volatile long spin = 0; spin < 20000000L; ++spin) {
                }
#pragma omp cancel parallel
            }
#pragma omp barrier
        }
        for (volatile long spin = 0; spin < 200000000L; ++spin) {
        }
    }
    printf("cancelled\n");
}

int main(int argc, char** argv) {
    static const struct {
        const char* name;
        void (*run)(void);
    } cases[] = {{"lock_order", lock_order},
                 {"critical_lock", critical_lock},
                 {"barrier_branch", barrier_branch},
                 {"nest_lock_other_thread", nest_lock_other_thread},
                 {"correct_locks", correct_locks},
                 {"correct_waits", correct_waits},
                 {"correct_cancel", correct_cancel}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (argc < 2) {
            printf("%s\n", cases[i].name);
        } else if (strcmp(argv[1], cases[i].name) == 0) {
            cases[i].run();
            return 0;
        }
    }
    return argc < 2 ? 0 : 2;
}
