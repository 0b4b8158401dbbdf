// A hand-instrumented OpenMP program: the POMP2 call sequences OPARI2 emits
// (opari2-reference.md §2), written out by hand so that the runtime is tested
// without the instrumenter.  argv[1] selects the scenario; the JSON profile
// is checked by test_e2e.py.
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_locks.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <omp.h>
#include <unistd.h>

static POMP2_Region_handle r_par = nullptr, r_for = nullptr, r_single = nullptr, r_crit = nullptr,
                           r_task = nullptr, r_taskwait = nullptr, r_barrier = nullptr, r_inner = nullptr,
                           r_user = nullptr, r_master = nullptr, r_atomic = nullptr;
#define CTC_PAR "58*regionType=parallel*sscl=prog.c:10:10*escl=prog.c:40:40**"
#define CTC_FOR "53*regionType=for*sscl=prog.c:12:12*escl=prog.c:14:14**"
#define CTC_SINGLE "56*regionType=single*sscl=prog.c:15:15*escl=prog.c:18:18**"
#define CTC_CRIT "75*regionType=critical*sscl=prog.c:19:19*escl=prog.c:21:21*criticalName=acc**"
#define CTC_TASK "54*regionType=task*sscl=prog.c:16:16*escl=prog.c:17:17**"
#define CTC_TASKWAIT "58*regionType=taskwait*sscl=prog.c:22:22*escl=prog.c:22:22**"
#define CTC_BARRIER "57*regionType=barrier*sscl=prog.c:23:23*escl=prog.c:23:23**"
#define CTC_INNER "58*regionType=parallel*sscl=prog.c:30:30*escl=prog.c:35:35**"
#define CTC_USER "79*regionType=userRegion*sscl=prog.c:5:5*escl=prog.c:50:50*userRegionName=main**"
#define CTC_MASTER "56*regionType=master*sscl=prog.c:24:24*escl=prog.c:25:25**"
#define CTC_ATOMIC "56*regionType=atomic*sscl=prog.c:26:26*escl=prog.c:26:26**"

static volatile double sink = 0;

static void work(int n) {
    double x = 0;
    for (int i = 0; i < n; ++i) x += i * 0.5;
    sink = sink + x;
}

static void spawn_tasks(int count) {
    for (int i = 0; i < count; ++i) {
        int pomp2_if = 1;
        {
            POMP2_Task_handle pomp2_old_task;
            POMP2_Task_handle pomp2_new_task;
            if (pomp2_if) POMP2_Task_create_begin(&r_task, &pomp2_new_task, &pomp2_old_task, pomp2_if, CTC_TASK);
#pragma omp task if (pomp2_if) firstprivate(pomp2_new_task, pomp2_if)
            {
                if (pomp2_if) POMP2_Task_begin(&r_task, pomp2_new_task);
                work(20000);
                if (pomp2_if) POMP2_Task_end(&r_task);
            }
            if (pomp2_if) POMP2_Task_create_end(&r_task, pomp2_old_task);
        }
    }
}

static void regions(bool exit_from_worker, bool nested) {
    int pomp2_num_threads = omp_get_max_threads();
    int pomp2_if = 1;
    POMP2_Task_handle pomp2_old_task;
    POMP2_Parallel_fork(&r_par, pomp2_if, pomp2_num_threads, &pomp2_old_task, CTC_PAR);
#pragma omp parallel firstprivate(pomp2_old_task) if (pomp2_if) num_threads(pomp2_num_threads)
    {
        POMP2_Parallel_begin(&r_par);
        {
            POMP2_For_enter(&r_for, CTC_FOR);
#pragma omp for nowait
            for (int i = 0; i < 64; ++i) work(1000 * (i % 4 + 1));
            {
                POMP2_Task_handle pomp2_old_task;
                POMP2_Implicit_barrier_enter(&r_for, &pomp2_old_task);
#pragma omp barrier
                POMP2_Implicit_barrier_exit(&r_for, pomp2_old_task);
            }
            POMP2_For_exit(&r_for);
        }
        {
            POMP2_Single_enter(&r_single, CTC_SINGLE);
#pragma omp single nowait
            {
                POMP2_Single_begin(&r_single);
                spawn_tasks(8);
                POMP2_Single_end(&r_single);
            }
            {
                POMP2_Task_handle pomp2_old_task;
                POMP2_Implicit_barrier_enter(&r_single, &pomp2_old_task);
#pragma omp barrier
                POMP2_Implicit_barrier_exit(&r_single, pomp2_old_task);
            }
            POMP2_Single_exit(&r_single);
        }
        for (int k = 0; k < 3; ++k) {
            POMP2_Critical_enter(&r_crit, CTC_CRIT);
#pragma omp critical(acc)
            {
                POMP2_Critical_begin(&r_crit);
                work(500);
                POMP2_Critical_end(&r_crit);
            }
            POMP2_Critical_exit(&r_crit);
        }
        {
            POMP2_Atomic_enter(&r_atomic, CTC_ATOMIC);
#pragma omp atomic
            sink += 1;
            POMP2_Atomic_exit(&r_atomic);
        }
#pragma omp master
        {
            POMP2_Master_begin(&r_master, CTC_MASTER);
            spawn_tasks(4);
            {
                POMP2_Task_handle pomp2_old_task;
                POMP2_Taskwait_begin(&r_taskwait, &pomp2_old_task, CTC_TASKWAIT);
#pragma omp taskwait
                POMP2_Taskwait_end(&r_taskwait, pomp2_old_task);
            }
            POMP2_Master_end(&r_master);
        }
        {
            POMP2_Task_handle pomp2_old_task;
            POMP2_Barrier_enter(&r_barrier, &pomp2_old_task, CTC_BARRIER);
#pragma omp barrier
            POMP2_Barrier_exit(&r_barrier, pomp2_old_task);
        }
        if (nested) {
            int inner_threads = 2;
            int inner_if = 1;
            POMP2_Task_handle pomp2_old_task;
            POMP2_Parallel_fork(&r_inner, inner_if, inner_threads, &pomp2_old_task, CTC_INNER);
#pragma omp parallel firstprivate(pomp2_old_task) num_threads(inner_threads)
            {
                POMP2_Parallel_begin(&r_inner);
                work(10000);
                {
                    POMP2_Task_handle pomp2_old_task;
                    POMP2_Implicit_barrier_enter(&r_inner, &pomp2_old_task);
#pragma omp barrier
                    POMP2_Implicit_barrier_exit(&r_inner, pomp2_old_task);
                }
                POMP2_Parallel_end(&r_inner);
            }
            POMP2_Parallel_join(&r_inner, pomp2_old_task);
        }
        if (exit_from_worker && omp_get_thread_num() == omp_get_num_threads() - 1) std::exit(3);
        {
            POMP2_Task_handle pomp2_old_task;
            POMP2_Implicit_barrier_enter(&r_par, &pomp2_old_task);
#pragma omp barrier
            POMP2_Implicit_barrier_exit(&r_par, pomp2_old_task);
        }
        POMP2_Parallel_end(&r_par);
    }
    POMP2_Parallel_join(&r_par, pomp2_old_task);
}

// A runaway recursion, each level inside the user region 'recursion', until
// the stack overflows (SIGSEGV, handled on the alternate signal stack).
static POMP2_Region_handle r_recursion = nullptr;
#define CTC_RECURSION "84*regionType=userRegion*sscl=prog.c:60:60*escl=prog.c:70:70*userRegionName=recursion**"
// The stack below the caller's, probed before each POMP2_Begin: the overflow
// then always happens in the program's code.  One inside an event of
// libompp (its stack frames are well under this) leaves the thread's regions
// open, as a thread interrupted in an event does (docs/runtime.md, Limits).
[[gnu::noinline]] static void probe_stack_below() {
    volatile char below[2048];
    below[0] = 0;
}

static int recurse(int depth) {
    volatile char frame[4096];
    frame[depth % sizeof frame] = static_cast<char>(depth);
    probe_stack_below();
    POMP2_Begin(&r_recursion, CTC_RECURSION);
    const int deeper = recurse(depth + 1);
    POMP2_End(&r_recursion);
    return deeper + frame[depth % sizeof frame];
}

enum class Ending { Sigterm, WorkerAborts, WorkerOverflowsStack };

// Every thread busy in a parallel region (inside the user region 'main'
// and a parallel region) when the master sends SIGTERM, or the last thread
// calls abort() (a failed assert()) or overflows its stack; nobody ever leaves.
[[noreturn]] static void signalled_while_busy(Ending ending) {
    int pomp2_num_threads = omp_get_max_threads();
    int pomp2_if = 1;
    POMP2_Task_handle pomp2_old_task;
    POMP2_Parallel_fork(&r_par, pomp2_if, pomp2_num_threads, &pomp2_old_task, CTC_PAR);
#pragma omp parallel firstprivate(pomp2_old_task) if (pomp2_if) num_threads(pomp2_num_threads)
    {
        POMP2_Parallel_begin(&r_par);
        static std::atomic<int> begun{0};
        ++begun;
        const bool signals = ending == Ending::Sigterm ? omp_get_thread_num() == 0
                                                       : omp_get_thread_num() == omp_get_num_threads() - 1;
        if (signals) {
            while (begun.load() < omp_get_num_threads()) work(1000);
            if (ending == Ending::WorkerAborts) std::abort();
            if (ending == Ending::WorkerOverflowsStack) sink = recurse(0);
            ::kill(::getpid(), SIGTERM);
        }
        for (;;) work(1000);
    }
    std::abort();  // not reached
}

static void locks() {
    omp_lock_t lock;
    static POMP2_Region_handle init_site = nullptr;
    // What ompp-instrument makes of omp_init_lock(&counter_lock) at line 181.
    POMP2_Lock_init_site(&init_site,
                         "80*regionType=lock*sscl=prog.c:181:181*escl=prog.c:181:181*lockName=counter_lock**");
    POMP2_Init_lock(&lock);
    int counter = 0;
#pragma omp parallel num_threads(2)
    for (int i = 0; i < 100; ++i) {
        POMP2_Set_lock(&lock);
        ++counter;
        POMP2_Unset_lock(&lock);
        if (POMP2_Test_lock(&lock)) POMP2_Unset_lock(&lock);
    }
    POMP2_Destroy_lock(&lock);
    if (counter != 200) std::exit(10);
    // The same lock object initialised again at another site: its uses are
    // that site's, although every thread has the address cached.
    static POMP2_Region_handle other_site = nullptr;
    POMP2_Lock_init_site(&other_site,
                         "78*regionType=lock*sscl=prog.c:199:199*escl=prog.c:199:199*lockName=other_lock**");
    POMP2_Init_lock(&lock);
    for (int i = 0; i < 50; ++i) {
        POMP2_Set_lock(&lock);
        POMP2_Unset_lock(&lock);
    }
    POMP2_Destroy_lock(&lock);
}

int main(int argc, char** argv) {
    const char* scenario = argc > 1 ? argv[1] : "regions";
    POMP2_Begin(&r_user, CTC_USER);
    if (std::strcmp(scenario, "regions") == 0) {
        regions(false, false);
    } else if (std::strcmp(scenario, "nested") == 0) {
        omp_set_max_active_levels(2);
        regions(false, true);
    } else if (std::strcmp(scenario, "exit-worker") == 0) {
        regions(true, false);
    } else if (std::strcmp(scenario, "sigterm") == 0 || std::strcmp(scenario, "sigint") == 0) {
        regions(false, false);
        std::raise(scenario[3] == 't' ? SIGTERM : SIGINT);
    } else if (std::strcmp(scenario, "sigterm-busy") == 0) {
        signalled_while_busy(Ending::Sigterm);
    } else if (std::strcmp(scenario, "abort-busy") == 0) {
        signalled_while_busy(Ending::WorkerAborts);
    } else if (std::strcmp(scenario, "overflow-busy") == 0) {
        signalled_while_busy(Ending::WorkerOverflowsStack);
    } else if (std::strcmp(scenario, "segv") == 0) {
        regions(false, false);
        *static_cast<volatile int*>(nullptr) = 1;
    } else if (std::strcmp(scenario, "stack-overflow") == 0) {
        regions(false, false);
        sink = recurse(0);
    } else if (std::strcmp(scenario, "unbalanced") == 0) {
        POMP2_End(&r_user);
    } else if (std::strcmp(scenario, "locks") == 0) {
        locks();
    } else {
        std::fprintf(stderr, "unknown scenario %s\n", scenario);
        return 2;
    }
    POMP2_End(&r_user);
    return 0;
}
