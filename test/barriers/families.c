/* families.c - one small use of each OpenMP construct family, chosen by the
 * first argument; the barrier-count test runs each plain and instrumented
 * and compares how often the OpenMP runtime synchronised. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 64
static double data[N];
static double sink;

static void parallel_(void) {
#pragma omp parallel
    data[omp_get_thread_num()] += 1;
}

static void parallel_for(void) {
#pragma omp parallel for
    for (int i = 0; i < N; ++i) data[i] += i;
}

static void parallel_for_lastprivate(void) {
    int last = 0;
#pragma omp parallel for lastprivate(last) schedule(dynamic, 4)
    for (int i = 0; i < N; ++i) last = i;
    sink += last;
}

static void parallel_sections(void) {
#pragma omp parallel sections
    {
#pragma omp section
        data[0] += 1;
#pragma omp section
        data[1] += 1;
    }
}

static void for_(void) {
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; ++i) data[i] += i;
#pragma omp for schedule(dynamic)
        for (int i = 0; i < N; ++i) data[i] += i;
    }
}

static void for_nowait(void) {
#pragma omp parallel
    {
#pragma omp for nowait
        for (int i = 0; i < N; ++i) data[i] += i;
    }
}

static void sections(void) {
#pragma omp parallel
    {
#pragma omp sections
        {
#pragma omp section
            data[0] += 1;
#pragma omp section
            data[1] += 1;
        }
    }
}

static void single(void) {
#pragma omp parallel
    {
#pragma omp single
        data[0] += 1;
    }
}

static void single_nowait(void) {
#pragma omp parallel
    {
#pragma omp single nowait
        data[0] += 1;
    }
}

static void single_copyprivate(void) {
    double value;
#pragma omp parallel private(value)
    {
#pragma omp single copyprivate(value)
        value = 1;
        data[omp_get_thread_num()] += value;
    }
}

static void master_masked(void) {
#pragma omp parallel
    {
#pragma omp master
        data[0] += 1;
#pragma omp masked
        data[1] += 1;
    }
}

static void critical(void) {
#pragma omp parallel
    {
#pragma omp critical
        data[0] += 1;
#pragma omp critical(named)
        data[1] += 1;
    }
}

static void lock(void) {
    omp_lock_t l;
    omp_init_lock(&l);
#pragma omp parallel
    {
        omp_set_lock(&l);
        data[0] += 1;
        omp_unset_lock(&l);
    }
    omp_destroy_lock(&l);
}

static void atomic(void) {
#pragma omp parallel
    {
#pragma omp atomic
        data[0] += 1;
    }
}

static void flush(void) {
#pragma omp parallel
    {
        data[omp_get_thread_num()] += 1;
#pragma omp flush
    }
}

static void ordered(void) {
#pragma omp parallel for ordered
    for (int i = 0; i < N; ++i) {
#pragma omp ordered
        sink += i;
    }
}

static void tasks(void) {
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < 8; ++i) {
#pragma omp task
            data[i] += 1;
        }
#pragma omp taskwait
#pragma omp taskgroup
        {
#pragma omp task
            data[9] += 1;
        }
#pragma omp task if (0)
        data[10] += 1;
#pragma omp task final(1)
        data[11] += 1;
    }
}

static void taskloop(void) {
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(8)
    for (int i = 0; i < N; ++i) data[i] += 1;
}

static void reduction(void) {
    double sum = 0;
#pragma omp parallel reduction(+ : sum)
    sum += 1;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < N; ++i) sum += data[i];
#pragma omp parallel
    {
#pragma omp for reduction(+ : sum)
        for (int i = 0; i < N; ++i) sum += data[i];
    }
    sink += sum;
}

static void cancel(void) {
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; ++i) {
            if (i == 3) {
#pragma omp cancel for
            }
            data[i] += 1;
        }
    }
    /* Thread 0 cancels once every other thread is past its cancellation
     * point, which they then leave through the barrier (also a cancellation
     * point).  Clang 16 leaves a cancelled region through a barrier of its
     * own, which a thread that passed its cancellation point before the cancel
     * meets only there: without the barrier the plain program hangs a few runs
     * in a thousand under load (fixed in LLVM by llvm/llvm-project#164586, for
     * the OpenMPIRBuilder); without the wait, whether a thread calls the
     * barrier depends on timing, and the barrier-count test compares counts. */
    static int past_cancellation_point;
    __atomic_store_n(&past_cancellation_point, 0, __ATOMIC_RELAXED);
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) {
            while (__atomic_load_n(&past_cancellation_point, __ATOMIC_ACQUIRE) < omp_get_num_threads() - 1) {
            }
#pragma omp cancel parallel
        } else {
#pragma omp cancellation point parallel
            __atomic_fetch_add(&past_cancellation_point, 1, __ATOMIC_RELEASE);
        }
        data[omp_get_thread_num()] += 1;
#pragma omp barrier
    }
}

static void barrier(void) {
#pragma omp parallel
    {
        data[omp_get_thread_num()] += 1;
#pragma omp barrier
        data[omp_get_thread_num()] += 1;
    }
}

static const struct {
    const char *name;
    void (*run)(void);
} families[] = {
    {"parallel", parallel_}, {"parallel_for", parallel_for}, {"parallel_for_lastprivate", parallel_for_lastprivate},
    {"parallel_sections", parallel_sections}, {"for", for_}, {"for_nowait", for_nowait}, {"sections", sections},
    {"single", single}, {"single_nowait", single_nowait}, {"single_copyprivate", single_copyprivate},
    {"master_masked", master_masked}, {"critical", critical}, {"lock", lock}, {"atomic", atomic}, {"flush", flush},
    {"ordered", ordered}, {"tasks", tasks}, {"taskloop", taskloop}, {"reduction", reduction}, {"cancel", cancel},
    {"barrier", barrier},
};

int main(int argc, char **argv) {
    for (size_t i = 0; i < sizeof families / sizeof families[0]; ++i) {
        if (argc < 2) {
            puts(families[i].name);
        } else if (strcmp(argv[1], families[i].name) == 0) {
            for (int repeat = 0; repeat < 3; ++repeat) families[i].run();
            return 0;
        }
    }
    return argc < 2 ? 0 : 2;
}
