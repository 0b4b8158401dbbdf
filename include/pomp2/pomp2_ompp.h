/* pomp2_ompp.h - ompp's extensions of the POMP2 API.
 *
 * OPARI2 stops at OpenMP 3.0.  These calls follow the same conventions as
 * <pomp2/pomp2_lib.h> (handle per source construct, CTC string on the first
 * event, old/new task handles around scheduling points) and cover what came
 * later.  Only libompp implements them; `--opari2-compatible` output never
 * calls them.
 *
 * Region types the CTC string may carry beyond OPARI2's list:
 *   masked parallelmaster parallelmasked taskgroup taskloop taskyield
 *   forsimd parallelforsimd loop scope ordereddepend cancel
 *   cancellationpoint section lock
 * Extra CTC keys:  function=<enclosing function> (any region; '*' written
 * %2A, '%' %25), lockName=<init argument> (lock), hasFilter=1 (masked), cancelKind=<parallel|for|sections|
 * taskgroup>, hasNogroup=1, hasGrainsize=1, hasNum_tasks=1, hasPriority=1,
 * hasFinal=1, hasMergeable=1, hasDepend=1, timing=count (atomic, flush: the
 * construct is counted by POMP2_Atomic_count / POMP2_Flush_count, not timed).
 * Unknown keys are ignored.
 */
#ifndef POMP2_OMPP_H
#define POMP2_OMPP_H

#include <pomp2/pomp2_lib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* masked (and the master part of parallel master/masked): called only by the
 * thread that executes the block, inside it - like POMP2_Master_begin. */
void POMP2_Masked_begin(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Masked_end(POMP2_Region_handle* pomp2_handle);

/* taskgroup: enter/exit around the construct (exit follows the wait for
 * descendant tasks, a scheduling point), begin/end around its body. */
void POMP2_Taskgroup_enter(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                           const char ctc_string[]);
void POMP2_Taskgroup_exit(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Taskgroup_begin(POMP2_Region_handle* pomp2_handle);
void POMP2_Taskgroup_end(POMP2_Region_handle* pomp2_handle);

/* task, with its if and final clauses evaluated (1 for a clause the task
 * lacks) and passed on, as the construct then gets them: `if(pomp2_if)
 * final(pomp2_final)`.  A task they make run at once inside its creation
 * (undeferred, or included in a final task) costs about a call in the plain
 * program; libompp then counts it without reading the clock, sets
 * *pomp2_new_task to POMP2_UNTIMED_TASK and *pomp2_old_task to a value that
 * POMP2_Task_create_end recognises.  The task body leaves out its
 * POMP2_Task_begin and POMP2_Task_end for that handle (ompp-instrument tests
 * it inline, saving two calls per task).  Otherwise as
 * POMP2_Task_create_begin. */
#define POMP2_UNTIMED_TASK ((POMP2_Task_handle)1 << 62)
/* True for the old-task value of a task creation or a taskwait that libompp
 * counted without a clock and whose end event has nothing to do (any such
 * task but the outermost final one; a taskwait with nothing to wait for):
 * ompp-instrument then leaves out POMP2_Task_create_end / POMP2_Taskwait_end,
 * so that a task or taskwait below a BOTS-style `if` or `final` cut-off
 * makes one call into libompp, not two.  Calling the end anyway is harmless.
 * (Such values are negative, and only they: a sign test, which the compiler
 * folds into the load of the variable.) */
#define POMP2_UNTIMED_DONE(pomp2_old_task) ((POMP2_Task_handle)(pomp2_old_task) < 0)
void POMP2_Task_create_begin_final(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_new_task,
                                   POMP2_Task_handle* pomp2_old_task, int pomp2_if, int pomp2_final,
                                   const char ctc_string[]);

/* Untimed tasks and taskwaits counted by the instrumented code itself, with
 * no call into libompp (ompp-instrument's output: POMP2_Task_create_begin_fast
 * and POMP2_Taskwait_begin_fast).  A call of a recursive kernel below an `if`
 * or `final` cut-off is two task creations and a taskwait of ~15-25 ns each
 * in the plain program; even one call into libompp per construct (~90
 * instructions) triples that.  So libompp keeps, per thread, what its last
 * untimed visit found: the call path it counted on (the task context and
 * its innermost open region) and up to four constructs counted there, each
 * with its call-path node.  While nothing else happens on the thread (every
 * libompp event clears `mode`), an untimed visit of one of them is counted
 * in the slot itself: one more after the construct counted before (`last`),
 * the slot's visits being the sum of those counts.  libompp adds what the
 * slots counted to the nodes at the thread's next event, or when a profile
 * is built on the thread, or at the end of the measurement: the node's
 * visits and included instances (a creation), its control flow from the
 * node counted before, and the node left last on the call path, as its own
 * untimed visits count them, so the profile shows the same.  (A snapshot that another thread
 * takes meanwhile shows them from that point on, as it shows a region's
 * visit once the region ends.)  Anything else (the first visit of a
 * construct there, a task that will be deferred or is the outermost final
 * one, a taskwait that may wait, measurement off or ended, a trace
 * recorded, no membarrier) takes the call, which fills the cache again.
 *
 * The slot is the construct's number modulo POMP2_UNTIMED_SLOTS, given by
 * ompp-instrument as a constant; constructs of other files sharing a slot
 * only take turns.  `busy` is set around the counting: Measurement::stop
 * clears every thread's mode and then waits for it, as for an event in
 * flight (a compiler barrier here, membarrier there), before it adds the
 * slots' counts.  Every field but `mode` and `busy` is the owning thread's
 * alone: the counts are plain increments.  Code instrumented for a shared
 * library reaches the thread's pointer through __tls_get_addr, still without
 * a call into libompp's events. */
#define POMP2_UNTIMED_SLOTS 4
/* mode: what the thread may count in the instrumented code now (bits
 * above these: libompp's own, allowing nothing). */
#define POMP2_UNTIMED_UNDEFERRED 1u /* a task whose if and final are false */
#define POMP2_UNTIMED_ANY_TASK 2u   /* any task (created inside a final task) */
#define POMP2_UNTIMED_TASKWAIT 4u   /* a taskwait: it has nothing to wait for */
#define POMP2_CREATION_OPEN 8u      /* `creation` is open, and nothing else happened since its begin */

typedef struct POMP2_Untimed_slot {
    const POMP2_Region_handle* handle; /* the construct counted here; 0: none */
    void* node;                        /* its call-path node (libompp's) */
    /* The untimed visits counted here and not yet added to the node, by the
     * slot counted before each (their sum: the visits). */
    __UINT64_TYPE__ after[POMP2_UNTIMED_SLOTS];
} POMP2_Untimed_slot;

/* A deferred task's creation that its end may close in the instrumented code
 * (POMP2_Task_create_end_fast).  libompp entered it at its begin as a frame
 * of the thread's call path and, while nothing else happens on the thread
 * (mode POMP2_CREATION_OPEN, cleared by every libompp event), its end is that
 * frame's pop: one visit of the time since `entered` on its node, the node
 * left last where the enclosing call path keeps it, the frame stack's end
 * moved back to the frame.  The instrumented code reads the clock libompp
 * reads: the TSC or, in tests, a manual clock's variable (libompp opens no
 * creation here with any other clock). */
typedef struct POMP2_Open_creation {
    const POMP2_Region_handle* handle; /* the task construct */
    POMP2_Task_handle old_task;        /* the old-task value its begin gave */
    void* node;                        /* its call-path node */
    __UINT64_TYPE__* figures;          /* the node's visits, inclusive, shortest and longest time, in a row */
    void** last_exited;                /* where the enclosing call path keeps the node it left last */
    void** frames_end;                 /* the end of the frame stack ... */
    void* frame;                       /* ... and the creation's frame: the end once it is popped */
    __UINT64_TYPE__ entered;           /* clock ticks */
    const __UINT64_TYPE__* manual_clock; /* the clock's variable, or 0: the TSC */
} POMP2_Open_creation;

typedef struct POMP2_Untimed_cache {
    unsigned busy;
    unsigned mode;
    unsigned last;                     /* the slot counted last */
    unsigned reserved;
    void** last_exited;                /* where the call path keeps the node it left last */
    POMP2_Task_handle marker;          /* the old-task value of an untimed visit there */
    POMP2_Untimed_slot slots[POMP2_UNTIMED_SLOTS];
    POMP2_Open_creation creation;
} POMP2_Untimed_cache;

/* The calling thread's cache; never null: before the thread's first event
 * (and after its state is released) an empty cache, which knows no
 * construct, so the inline forms test no pointer.  The name carries the
 * layout's version (v2: slots counting only their control flow, done
 * markers in the sign bit) and changes with it: an object instrumented
 * against another layout then fails to link or load instead of writing
 * through stale offsets. */
extern __thread POMP2_Untimed_cache* POMP2_Untimed_cache_v2_of_thread;

/* POMP2_Task_create_begin_final and POMP2_Taskwait_begin, the cache filled
 * into `slot`: the calls the _fast forms make when they cannot count. */
void POMP2_Task_create_begin_slot(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_new_task,
                                  POMP2_Task_handle* pomp2_old_task, int pomp2_if, int pomp2_final,
                                  const char ctc_string[], unsigned slot);
void POMP2_Taskwait_begin_slot(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                               const char ctc_string[], unsigned slot);

#define POMP2_UNTIMED_ADD_ONE(counter)                                                                 \
    __atomic_store_n((counter), __atomic_load_n((counter), __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED)

/* Inlined at every optimisation level: the point is to make no call. */
#define POMP2_INLINE static __inline__ __attribute__((__always_inline__))

/* One untimed visit of `handle`'s construct counted in `cache`, if `needed`
 * (a mode bit) allows it and the slot knows the construct; 0 if the call
 * has to count it. */
POMP2_INLINE int POMP2_Untimed_counted(POMP2_Untimed_cache* cache, unsigned needed, const POMP2_Region_handle* handle,
                                       unsigned slot) {
    POMP2_Untimed_slot* counted = &cache->slots[slot];
    int allowed;
    if (counted->handle != handle) return 0;
    __atomic_store_n(&cache->busy, 1u, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    allowed = (__atomic_load_n(&cache->mode, __ATOMIC_RELAXED) & needed) != 0;
    if (allowed) {
        ++counted->after[cache->last];
        cache->last = slot;
    }
    __atomic_store_n(&cache->busy, 0u, __ATOMIC_RELEASE);
    return allowed;
}

/* POMP2_Task_create_begin_final, counted inline when it can be: then
 * *pomp2_new_task is POMP2_UNTIMED_TASK and *pomp2_old_task a marker for
 * which POMP2_UNTIMED_DONE holds.  Defining POMP2_NO_INLINE_COUNTS makes it
 * the call alone (the tests compare the two). */
POMP2_INLINE void POMP2_Task_create_begin_fast(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_new_task,
                                               POMP2_Task_handle* pomp2_old_task, int pomp2_if, int pomp2_final,
                                               const char ctc_string[], unsigned slot) {
#ifndef POMP2_NO_INLINE_COUNTS
    POMP2_Untimed_cache* cache = POMP2_Untimed_cache_v2_of_thread;
    slot %= POMP2_UNTIMED_SLOTS;
    if (POMP2_Untimed_counted(cache, (pomp2_if | pomp2_final) ? POMP2_UNTIMED_ANY_TASK : POMP2_UNTIMED_UNDEFERRED,
                              pomp2_handle, slot)) {
        *pomp2_new_task = POMP2_UNTIMED_TASK;
        *pomp2_old_task = cache->marker;
        return;
    }
#endif
    POMP2_Task_create_begin_slot(pomp2_handle, pomp2_new_task, pomp2_old_task, pomp2_if, pomp2_final,
                                 ctc_string, slot % POMP2_UNTIMED_SLOTS);
}

/* POMP2_Taskwait_begin, counted inline when it has nothing to wait for. */
POMP2_INLINE void POMP2_Taskwait_begin_fast(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                                            const char ctc_string[], unsigned slot) {
#ifndef POMP2_NO_INLINE_COUNTS
    POMP2_Untimed_cache* cache = POMP2_Untimed_cache_v2_of_thread;
    slot %= POMP2_UNTIMED_SLOTS;
    if (POMP2_Untimed_counted(cache, POMP2_UNTIMED_TASKWAIT, pomp2_handle, slot)) {
        *pomp2_old_task = cache->marker;
        return;
    }
#endif
    POMP2_Taskwait_begin_slot(pomp2_handle, pomp2_old_task, ctc_string, slot % POMP2_UNTIMED_SLOTS);
}

/* The time now on libompp's clock, as POMP2_Open_creation says to read it. */
POMP2_INLINE __UINT64_TYPE__ POMP2_Creation_clock(const POMP2_Open_creation* creation) {
    if (creation->manual_clock != 0) return __atomic_load_n(creation->manual_clock, __ATOMIC_RELAXED);
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    return 0; /* not reached: without the TSC libompp opens no creation for the instrumented code */
#endif
}

/* The open creation of `cache` closed, if it is still open (see
 * POMP2_Open_creation); 0 if the call has to close it. */
POMP2_INLINE int POMP2_Creation_closed(POMP2_Untimed_cache* cache) {
    POMP2_Open_creation* creation = &cache->creation;
    int open;
    __atomic_store_n(&cache->busy, 1u, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    open = (__atomic_load_n(&cache->mode, __ATOMIC_RELAXED) & POMP2_CREATION_OPEN) != 0;
    if (open) {
        __UINT64_TYPE__ now = POMP2_Creation_clock(creation);
        __UINT64_TYPE__ spent = now > creation->entered ? now - creation->entered : 0;
        __UINT64_TYPE__* figures = creation->figures;
        POMP2_UNTIMED_ADD_ONE(&figures[0]);
        __atomic_store_n(&figures[1], __atomic_load_n(&figures[1], __ATOMIC_RELAXED) + spent, __ATOMIC_RELAXED);
        if (spent < __atomic_load_n(&figures[2], __ATOMIC_RELAXED))
            __atomic_store_n(&figures[2], spent, __ATOMIC_RELAXED);
        if (spent > __atomic_load_n(&figures[3], __ATOMIC_RELAXED))
            __atomic_store_n(&figures[3], spent, __ATOMIC_RELAXED);
        *creation->last_exited = creation->node;
        *creation->frames_end = creation->frame;
        __atomic_store_n(&cache->mode, 0u, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&cache->busy, 0u, __ATOMIC_RELEASE);
    return open;
}

/* POMP2_Task_create_end as ompp-instrument writes it: nothing to do after a
 * task counted at its creation (POMP2_UNTIMED_DONE), the creation of a
 * deferred task closed here while nothing else happened on the thread since
 * its begin (a task run at once inside it, or any other event, takes the
 * call), else the call. */
POMP2_INLINE void POMP2_Task_create_end_fast(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task) {
#ifndef POMP2_NO_INLINE_COUNTS
    POMP2_Untimed_cache* cache;
#endif
    if (POMP2_UNTIMED_DONE(pomp2_old_task)) return;
#ifndef POMP2_NO_INLINE_COUNTS
    cache = POMP2_Untimed_cache_v2_of_thread;
    if (cache->creation.handle == pomp2_handle && cache->creation.old_task == pomp2_old_task &&
        POMP2_Creation_closed(cache))
        return;
#endif
    POMP2_Task_create_end(pomp2_handle, pomp2_old_task);
}

/* atomic and flush, counted without timing: one call before the construct
 * instead of the enter/exit pair.  Their own duration is below the clock's
 * resolution, and in a hot loop (a flush polling a flag) timing them would
 * cost more than the construct; the CTC string carries timing=count. */
void POMP2_Atomic_count(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Flush_count(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);

/* taskyield: a scheduling point. */
void POMP2_Taskyield_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                           const char ctc_string[]);
void POMP2_Taskyield_end(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);

/* taskloop: enter/exit around the whole construct, on the encountering
 * thread (its implicit taskgroup wait included).  The tasks the OpenMP
 * runtime generates report POMP2_Taskloop_task_begin/end with the taskloop's
 * handle; they have no create events, since the instrumented code cannot see
 * their creation. */
void POMP2_Taskloop_enter(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle* pomp2_old_task,
                          const char ctc_string[]);
void POMP2_Taskloop_exit(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_old_task);
void POMP2_Taskloop_task_begin(POMP2_Region_handle* pomp2_handle, POMP2_Task_handle pomp2_task);
void POMP2_Taskloop_task_end(POMP2_Region_handle* pomp2_handle);

/* scope (OpenMP 5.1), a worksharing construct with an implicit barrier that
 * is instrumented like for: nowait + POMP2_Implicit_barrier_*. */
void POMP2_Scope_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Scope_exit(POMP2_Region_handle* pomp2_handle);

/* cancel / cancellation point.  When cancellation is activated the thread
 * leaves the construct without reaching the matching _exit (and possibly
 * without other end events of the cancelled region); the runtime closes the
 * regions it left open when the next event of an enclosing region arrives, so
 * end events stay balanced in the profile. */
void POMP2_Cancel_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Cancel_exit(POMP2_Region_handle* pomp2_handle);
void POMP2_Cancellation_point_enter(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_Cancellation_point_exit(POMP2_Region_handle* pomp2_handle);

/* Names the next lock this thread initialises (POMP2_Init_lock and its nest
 * and hint variants): ompp-instrument calls it in the init call's callee,
 * `(POMP2_Lock_init_site(h, ctc), POMP2_Init_lock)(&x)`, with a
 * regionType=lock CTC string whose sscl is the call's location and whose
 * lockName key is the argument (`x`).  Every lock initialised at one site is
 * one LOCK region; a lock initialised elsewhere is named by its address. */
void POMP2_Lock_init_site(POMP2_Region_handle* pomp2_handle, const char ctc_string[]);

/* User regions named in code (the POMP_USER_REGION_* macros of
 * <pomp2/pomp2_user.h>).  Begin keeps one handle per call site; end finds the
 * innermost open user region of that name on the calling thread, and a
 * mismatch is recorded as a warning naming file and line. */
void POMP2_USER_Begin_named(POMP2_Region_handle* pomp2_handle, const char* name, const char* file,
                            int line);
void POMP2_USER_End_named(const char* name, const char* file, int line);

/* MPI calls, measured by libompp_mpi's PMPI wrappers (docs/mpi.md).  Each
 * MPI function is one region of kind MPI, named by `function` ("MPI_Send"),
 * entered and left by the calling thread where it calls, so a call inside a
 * parallel region sits under it in that thread's call tree; the handle (one
 * per wrapper) caches the region.  End adds the bytes the call moved.
 * POMP2_MPI_Process gives MPI_COMM_WORLD's rank and size once MPI_Init has
 * returned; they override what the launcher's environment said. */
void POMP2_MPI_Begin(POMP2_Region_handle* pomp2_handle, const char* function);
void POMP2_MPI_End(POMP2_Region_handle* pomp2_handle, unsigned long long bytes);
void POMP2_MPI_Process(int rank, int size);

/* parallel for / parallel loop / parallel sections, split into parallel and
 * the worksharing construct: nothing of the program runs between the team's
 * begin and the construct's enter, nor between the construct's exit and the
 * team's end, so each pair is one call, measured at one clock read.  Each
 * means its two events, in this order: POMP2_Parallel_begin(parallel_handle)
 * then POMP2_For_enter(pomp2_handle, ctc_string) (Sections_enter), and
 * POMP2_For_exit(pomp2_handle) (Sections_exit) then
 * POMP2_Parallel_end(parallel_handle). */
void POMP2_Parallel_begin_for_enter(POMP2_Region_handle* parallel_handle, POMP2_Region_handle* pomp2_handle,
                                    const char ctc_string[]);
void POMP2_For_exit_parallel_end(POMP2_Region_handle* pomp2_handle, POMP2_Region_handle* parallel_handle);
void POMP2_Parallel_begin_sections_enter(POMP2_Region_handle* parallel_handle, POMP2_Region_handle* pomp2_handle,
                                         const char ctc_string[]);
void POMP2_Sections_exit_parallel_end(POMP2_Region_handle* pomp2_handle, POMP2_Region_handle* parallel_handle);

/* Adds one snapshot, labelled, to the continuous profile (OMPP_SNAPSHOT_INTERVAL
 * takes them periodically). */
void POMP2_USER_Snapshot(const char* label);

#ifdef __cplusplus
}
#endif

#endif /* POMP2_OMPP_H */
