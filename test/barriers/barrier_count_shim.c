/* barrier_count_shim.c - LD_PRELOAD library for the barrier-count test: counts
 * how often a program enters the OpenMP runtime's synchronisation points
 * (explicit and implicit barriers, region joins, critical sections, locks,
 * flushes) of GCC's libgomp and of LLVM's libomp, and writes the counts to
 * the file named by $BARRIER_COUNT_OUT at exit ("<entry point> <count>").
 *
 * Every entry point is a two-instruction x86-64 trampoline: count, then jump
 * to the runtime's own symbol (dlsym(RTLD_NEXT)) with the caller's registers
 * and stack untouched, so no signature needs to be restated. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* Each X(name): an entry point that synchronises the team (or a join). */
#define ENTRY_POINTS(X)                                                                                       \
    X(GOMP_barrier) X(GOMP_barrier_cancel) X(GOMP_loop_end) X(GOMP_loop_end_cancel) X(GOMP_sections_end)       \
    X(GOMP_sections_end_cancel) X(GOMP_single_copy_start) X(GOMP_single_copy_end)                              \
    X(GOMP_workshare_task_reduction_unregister) X(GOMP_parallel) X(GOMP_parallel_start)                        \
    X(GOMP_parallel_loop_static) X(GOMP_parallel_loop_dynamic) X(GOMP_parallel_loop_guided)                    \
    X(GOMP_parallel_loop_runtime) X(GOMP_parallel_loop_nonmonotonic_dynamic)                                   \
    X(GOMP_parallel_loop_nonmonotonic_guided) X(GOMP_parallel_loop_nonmonotonic_runtime)                       \
    X(GOMP_parallel_loop_maybe_nonmonotonic_runtime) X(GOMP_parallel_sections) X(GOMP_parallel_reductions)     \
    X(GOMP_critical_start) X(GOMP_critical_name_start) X(GOMP_atomic_start) X(GOMP_ordered_start)              \
    X(__kmpc_barrier) X(__kmpc_cancel_barrier) X(__kmpc_fork_call) X(__kmpc_fork_call_if) X(__kmpc_reduce)     \
    X(__kmpc_end_reduce) X(__kmpc_copyprivate) X(__kmpc_critical) X(__kmpc_critical_with_hint) X(__kmpc_flush) \
    X(__kmpc_ordered) X(omp_set_lock) X(omp_set_nest_lock)

#define HIDDEN __attribute__((visibility("hidden")))
#define COUNTER(name) HIDDEN unsigned long count_##name; HIDDEN void *real_##name;
ENTRY_POINTS(COUNTER)

/* name: lock incq count_name(%rip); jmp *real_name(%rip) */
#define TRAMPOLINE(name)                                                                                      \
    __asm__(".globl " #name "\n.type " #name ",@function\n" #name ":\n"                                       \
            "\tlock incq count_" #name "(%rip)\n\tjmp *real_" #name "(%rip)\n.size " #name ",.-" #name "\n");
ENTRY_POINTS(TRAMPOLINE)

static void write_counts(void) {
    const char *path = getenv("BARRIER_COUNT_OUT");
    FILE *out = path != NULL ? fopen(path, "w") : NULL;
    if (out == NULL) return;
#define PRINT(name) if (real_##name != NULL) fprintf(out, "%s %lu\n", #name, __atomic_load_n(&count_##name, __ATOMIC_RELAXED));
    ENTRY_POINTS(PRINT)
    fclose(out);
}

__attribute__((constructor(101))) static void resolve(void) {
#define RESOLVE(name) real_##name = dlsym(RTLD_NEXT, #name);
    ENTRY_POINTS(RESOLVE)
    atexit(write_counts);
}
