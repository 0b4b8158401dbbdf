/* pomp2_recorder.c - a test-only POMP2 runtime that records events.
 *
 * It implements every function of <pomp2/pomp2_lib.h>, <pomp2/pomp2_user_lib.h>
 * and <pomp2/pomp2_ompp.h> and writes one line per event to the file named by
 * OMPP_TEST_EVENTS (stderr if unset):
 *
 *     T<thread> <Call> <regionType> <line>
 *
 * e.g. "T0 For_enter for 12", where Call is the POMP2 function name without
 * its "POMP2_" prefix and line is the first line of the region's sscl.  Calls
 * without a region (locks, Init, ...) print "-" for type and line.  The task
 * handle protocol is checked: a task id handed to *_begin that no
 * *_create_begin produced is recorded as "T<n> error bad-task-id", and a
 * regionType that is not a written row of <pomp2/ompp_regions.def> stops the
 * program (exit 98).  This is a mock for tests, not libompp.
 */
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char type[32];
    int line;
} region_t;

static FILE* out;
static omp_lock_t out_lock;
static atomic_flag out_ready_flag = ATOMIC_FLAG_INIT;
static atomic_int out_ready;
static atomic_llong next_task = 1;
static _Thread_local POMP2_Task_handle current_task;

static void open_output(void) {
    if (atomic_load(&out_ready))
        return;
    if (!atomic_flag_test_and_set(&out_ready_flag)) {
        const char* path = getenv("OMPP_TEST_EVENTS");
        out = path ? fopen(path, "w") : stderr;
        if (!out) {
            perror(path);
            exit(97);
        }
        omp_init_lock(&out_lock);
        atomic_store(&out_ready, 1);
    }
    while (!atomic_load(&out_ready)) {
    }
}

/* A regionType that ompp-instrument writes (<pomp2/ompp_regions.def>, the
 * table libompp reads CTC strings with). */
static int written_region_type(const char* type) {
#define OMPP_REGION_TYPE(Type, Kind, Written) \
    if ((Written) && strcmp(type, Type) == 0) \
        return 1;
#include <pomp2/ompp_regions.def>
    return 0;
}

static region_t* parse_ctc(const char* ctc) {
    region_t* r = calloc(1, sizeof *r);
    const char* t = strstr(ctc, "*regionType=");
    const char* s = strstr(ctc, "*sscl=");
    if (!r || !t || !s) {
        fprintf(stderr, "pomp2_recorder: malformed ctc string: %s\n", ctc);
        exit(98);
    }
    t += strlen("*regionType=");
    size_t n = strcspn(t, "*");
    if (n >= sizeof r->type)
        n = sizeof r->type - 1;
    memcpy(r->type, t, n);
    if (!written_region_type(r->type)) {
        fprintf(stderr, "pomp2_recorder: regionType '%s' is not in ompp_regions.def: %s\n", r->type, ctc);
        exit(98);
    }
    /* sscl=<file>:<l1>:<l2>: the file may contain ':', so take the last two. */
    const char* end = strchr(s + 1, '*');
    const char* c2 = end;
    while (c2 > s && *c2 != ':')
        --c2;
    const char* c1 = c2 - 1;
    while (c1 > s && *c1 != ':')
        --c1;
    r->line = atoi(c1 + 1);
    return r;
}

static region_t* region(POMP2_Region_handle* h, const char* ctc) {
    if (!*h) {
        if (!ctc) {
            fprintf(stderr, "pomp2_recorder: event on an unregistered region without ctc\n");
            exit(99);
        }
        /* Lazily registered regions may race; the loser's copy leaks (test only). */
        *h = parse_ctc(ctc);
    }
    return (region_t*)*h;
}

static void record(const char* call, POMP2_Region_handle* h, const char* ctc) {
    open_output();
    int tid = omp_get_thread_num();
    omp_set_lock(&out_lock);
    if (h) {
        region_t* r = region(h, ctc);
        fprintf(out, "T%d %s %s %d\n", tid, call, r->type, r->line);
    } else {
        fprintf(out, "T%d %s - -\n", tid, call);
    }
    fflush(out);
    omp_unset_lock(&out_lock);
}

static void check_task(POMP2_Task_handle task) {
    if (task <= 0 || task >= atomic_load(&next_task))
        record("error bad-task-id", NULL, NULL);
}

static POMP2_Task_handle new_task(void) { return atomic_fetch_add(&next_task, 1); }

/* Registration and task identity. */
void POMP2_Assign_handle(POMP2_Region_handle* h, const char ctc[]) { region(h, ctc); }
void POMP2_USER_Assign_handle(POMP2_USER_Region_handle* h, const char ctc[]) { region(h, ctc); }
POMP2_Task_handle POMP2_Get_new_task_handle(void) { return new_task(); }
__attribute__((weak)) void POMP2_Init_regions(void) {}
__attribute__((weak)) size_t POMP2_Get_num_regions(void) { return 0; }
__attribute__((weak)) void POMP2_USER_Init_regions(void) {}
__attribute__((weak)) size_t POMP2_USER_Get_num_regions(void) { return 0; }
const char* POMP2_Get_opari2_version(void) { return "pomp2_recorder"; }
int POMP2_Lib_get_max_threads(void) { return omp_get_max_threads(); }

#define ENTER_CTC(Name) \
    void POMP2_##Name(POMP2_Region_handle* h, const char ctc[]) { record(#Name, h, ctc); }
#define PLAIN(Name) \
    void POMP2_##Name(POMP2_Region_handle* h) { record(#Name, h, NULL); }
#define SAVE_TASK(Name)                                                                         \
    void POMP2_##Name(POMP2_Region_handle* h, POMP2_Task_handle* old, const char ctc[]) {      \
        *old = current_task;                                                                    \
        record(#Name, h, ctc);                                                                  \
    }
#define RESTORE_TASK(Name)                                                                      \
    void POMP2_##Name(POMP2_Region_handle* h, POMP2_Task_handle old) {                         \
        record(#Name, h, NULL);                                                                 \
        current_task = old;                                                                     \
    }

ENTER_CTC(Atomic_enter) PLAIN(Atomic_exit) ENTER_CTC(Atomic_count)
SAVE_TASK(Barrier_enter) RESTORE_TASK(Barrier_exit)
void POMP2_Implicit_barrier_enter(POMP2_Region_handle* h, POMP2_Task_handle* old) {
    *old = current_task;
    record("Implicit_barrier_enter", h, NULL);
}
RESTORE_TASK(Implicit_barrier_exit)
ENTER_CTC(Flush_enter) PLAIN(Flush_exit) ENTER_CTC(Flush_count)
ENTER_CTC(Critical_enter) PLAIN(Critical_exit) PLAIN(Critical_begin) PLAIN(Critical_end)
ENTER_CTC(Ordered_enter) PLAIN(Ordered_exit) PLAIN(Ordered_begin) PLAIN(Ordered_end)
void POMP2_Parallel_fork(POMP2_Region_handle* h, int if_clause, int num_threads,
                         POMP2_Task_handle* old, const char ctc[]) {
    (void)if_clause;
    (void)num_threads;
    *old = current_task;
    record("Parallel_fork", h, ctc);
}
RESTORE_TASK(Parallel_join)
void POMP2_Parallel_begin(POMP2_Region_handle* h) {
    current_task = new_task();
    record("Parallel_begin", h, NULL);
}
PLAIN(Parallel_end)
ENTER_CTC(For_enter) PLAIN(For_exit)
ENTER_CTC(Master_begin) PLAIN(Master_end)
ENTER_CTC(Sections_enter) PLAIN(Sections_exit)
/* A combined construct's fused calls (pomp2_ompp.h): their two events each. */
#define FUSED_CALLS(inner, Inner)                                                                  \
    void POMP2_Parallel_begin_##inner##_enter(POMP2_Region_handle* p, POMP2_Region_handle* h,     \
                                              const char ctc[]) {                                  \
        POMP2_Parallel_begin(p);                                                                   \
        POMP2_##Inner##_enter(h, ctc);                                                             \
    }                                                                                              \
    void POMP2_##Inner##_exit_parallel_end(POMP2_Region_handle* h, POMP2_Region_handle* p) {      \
        POMP2_##Inner##_exit(h);                                                                   \
        POMP2_Parallel_end(p);                                                                     \
    }
FUSED_CALLS(for, For) FUSED_CALLS(sections, Sections)
ENTER_CTC(Section_begin) PLAIN(Section_end)
ENTER_CTC(Single_enter) PLAIN(Single_exit) PLAIN(Single_begin) PLAIN(Single_end)
ENTER_CTC(Workshare_enter) PLAIN(Workshare_exit)

/* The undeferred task (if value 0) created last on this thread, until it begins. */
static _Thread_local POMP2_Task_handle undeferred_pending;
#define TASK_CALLS(Prefix)                                                                      \
    void POMP2_##Prefix##_create_begin(POMP2_Region_handle* h, POMP2_Task_handle* new_t,       \
                                       POMP2_Task_handle* old, int pomp2_if, const char ctc[]) { \
        (void)pomp2_if;                                                                         \
        *old = current_task;                                                                    \
        *new_t = new_task();                                                                    \
        record(#Prefix "_create_begin", h, ctc);                                                \
    }                                                                                           \
    void POMP2_##Prefix##_create_end(POMP2_Region_handle* h, POMP2_Task_handle old) {          \
        if (undeferred_pending != 0) record("error undeferred-task-ran-apart", h, NULL);        \
        undeferred_pending = 0;                                                                 \
        record(#Prefix "_create_end", h, NULL);                                                 \
        current_task = old;                                                                     \
    }                                                                                           \
    void POMP2_##Prefix##_begin(POMP2_Region_handle* h, POMP2_Task_handle task) {              \
        check_task(task);                                                                       \
        if (task == undeferred_pending) undeferred_pending = 0;                                 \
        current_task = task;                                                                    \
        record(#Prefix "_begin", h, NULL);                                                      \
    }                                                                                           \
    PLAIN(Prefix##_end)
TASK_CALLS(Task)
TASK_CALLS(Untied_task)

/* ompp's task creation with the if and final clause values, recorded as
 * Task_create_begin / Task_end.  A task whose if value is 0 is undeferred:
 * it must begin on this thread before its creation ends, or the value the
 * instrumented code passed was wrong. */
void POMP2_Task_create_begin_final(POMP2_Region_handle* h, POMP2_Task_handle* new_t, POMP2_Task_handle* old,
                                   int pomp2_if, int pomp2_final, const char ctc[]) {
    (void)pomp2_final;
    POMP2_Task_create_begin(h, new_t, old, pomp2_if, ctc);
    if (!pomp2_if) undeferred_pending = *new_t;
}
SAVE_TASK(Taskwait_begin) RESTORE_TASK(Taskwait_end)

/* The slot forms the inline counting calls (POMP2_Task_create_begin_fast,
 * POMP2_Taskwait_begin_fast), recorded as the plain calls: this runtime's
 * untimed cache is the empty one, so the instrumented code always calls. */
static POMP2_Untimed_cache no_untimed_cache;
__thread POMP2_Untimed_cache* POMP2_Untimed_cache_v2_of_thread = &no_untimed_cache;
void POMP2_Task_create_begin_slot(POMP2_Region_handle* h, POMP2_Task_handle* new_t, POMP2_Task_handle* old,
                                  int pomp2_if, int pomp2_final, const char ctc[], unsigned slot) {
    (void)slot;
    POMP2_Task_create_begin_final(h, new_t, old, pomp2_if, pomp2_final, ctc);
}
void POMP2_Taskwait_begin_slot(POMP2_Region_handle* h, POMP2_Task_handle* old, const char ctc[], unsigned slot) {
    (void)slot;
    POMP2_Taskwait_begin(h, old, ctc);
}

/* Locks: the wrappers keep the lock semantics. */
#define LOCK_CALL(Ret, Name, Type, Call) \
    Ret POMP2_##Name(Type* s) { record(#Name, NULL, NULL); return Call(s); }
LOCK_CALL(void, Init_lock, omp_lock_t, omp_init_lock)
LOCK_CALL(void, Destroy_lock, omp_lock_t, omp_destroy_lock)
LOCK_CALL(void, Set_lock, omp_lock_t, omp_set_lock)
LOCK_CALL(void, Unset_lock, omp_lock_t, omp_unset_lock)
LOCK_CALL(int, Test_lock, omp_lock_t, omp_test_lock)
LOCK_CALL(void, Init_nest_lock, omp_nest_lock_t, omp_init_nest_lock)
LOCK_CALL(void, Destroy_nest_lock, omp_nest_lock_t, omp_destroy_nest_lock)
LOCK_CALL(void, Set_nest_lock, omp_nest_lock_t, omp_set_nest_lock)
LOCK_CALL(void, Unset_nest_lock, omp_nest_lock_t, omp_unset_nest_lock)
LOCK_CALL(int, Test_nest_lock, omp_nest_lock_t, omp_test_nest_lock)
void POMP2_Init_lock_with_hint(omp_lock_t* s, omp_sync_hint_t hint) {
    /* libgomp 12 exports no omp_init_lock_with_hint; a hint may be ignored. */
    (void)hint;
    record("Init_lock_with_hint", NULL, NULL);
    omp_init_lock(s);
}
void POMP2_Init_nest_lock_with_hint(omp_nest_lock_t* s, omp_sync_hint_t hint) {
    (void)hint;
    record("Init_nest_lock_with_hint", NULL, NULL);
    omp_init_nest_lock(s);
}

/* User API. */
void POMP2_Init(void) { record("Init", NULL, NULL); }
void POMP2_Finalize(void) { record("Finalize", NULL, NULL); }
void POMP2_On(void) { record("On", NULL, NULL); }
void POMP2_Off(void) { record("Off", NULL, NULL); }
ENTER_CTC(Begin) PLAIN(End)

/* ompp extensions. */
ENTER_CTC(Masked_begin) PLAIN(Masked_end)
ENTER_CTC(Lock_init_site)
SAVE_TASK(Taskgroup_enter) RESTORE_TASK(Taskgroup_exit) PLAIN(Taskgroup_begin) PLAIN(Taskgroup_end)
SAVE_TASK(Taskyield_begin) RESTORE_TASK(Taskyield_end)
SAVE_TASK(Taskloop_enter) RESTORE_TASK(Taskloop_exit)
void POMP2_Taskloop_task_begin(POMP2_Region_handle* h, POMP2_Task_handle task) {
    check_task(task);
    current_task = task;
    record("Taskloop_task_begin", h, NULL);
}
PLAIN(Taskloop_task_end)
ENTER_CTC(Scope_enter) PLAIN(Scope_exit)
ENTER_CTC(Cancel_enter) PLAIN(Cancel_exit)
ENTER_CTC(Cancellation_point_enter) PLAIN(Cancellation_point_exit)
void POMP2_USER_Begin_named(POMP2_Region_handle* h, const char* name, const char* file, int line) {
    (void)h;
    (void)file;
    open_output();
    omp_set_lock(&out_lock);
    fprintf(out, "T%d USER_Begin_named %s %d\n", omp_get_thread_num(), name, line);
    fflush(out);
    omp_unset_lock(&out_lock);
}
void POMP2_USER_End_named(const char* name, const char* file, int line) {
    (void)file;
    open_output();
    omp_set_lock(&out_lock);
    fprintf(out, "T%d USER_End_named %s %d\n", omp_get_thread_num(), name, line);
    fflush(out);
    omp_unset_lock(&out_lock);
}
void POMP2_USER_Snapshot(const char* label) {
    (void)label;
    record("USER_Snapshot", NULL, NULL);
}
