// Awkward programs for libompp (issue 10), hand-instrumented like
// pomp2_program.cpp.  argv[1] selects the scenario, argv[2] its size:
//   deep N        a user region inside a recursion N deep
//   quicksort N   textbook quicksort of N sorted ints, parallel sections if(depth < 2)
//   names N       N user regions with run-time names from one call site; prints
//                 "registration: W s, cpu C s", the wall and CPU time of the
//                 N regions' events
//   churn N       N nested team creations (new OS threads with libgomp)
// Built with -DOMPP_STRESS_PLAIN, every POMP2 call is left out: the same
// program without ompp, for scripts/stress.sh's comparison.
#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <omp.h>
#include <vector>

#ifdef OMPP_STRESS_PLAIN
#define POMP(call) ((void)0)
#else
#define POMP(call) call
#endif

static POMP2_Region_handle r_recursion = nullptr, r_par = nullptr, r_sections = nullptr, r_outer = nullptr,
                           r_inner = nullptr, r_named = nullptr;
#define CTC_RECURSION "84*regionType=userRegion*sscl=stress.c:5:5*escl=stress.c:9:9*userRegionName=recursion**"
#define CTC_PAR "62*regionType=parallel*sscl=stress.c:20:20*escl=stress.c:30:30**"
#define CTC_SECTIONS "62*regionType=sections*sscl=stress.c:21:21*escl=stress.c:29:29**"
#define CTC_OUTER "62*regionType=parallel*sscl=stress.c:40:40*escl=stress.c:49:49**"
#define CTC_INNER "62*regionType=parallel*sscl=stress.c:42:42*escl=stress.c:47:47**"

static volatile long sink = 0;

__attribute__((noinline)) static void deep(int levels) {
    POMP(POMP2_Begin(&r_recursion, CTC_RECURSION));
    sink = sink + 1;
    if (levels > 1) deep(levels - 1);
    sink = sink + 1;  // no tail call
    POMP(POMP2_End(&r_recursion));
}

static int partition(std::vector<int>& a, int low, int high) {
    const int pivot = a[high];
    int i = low;
    for (int j = low; j < high; ++j) {
        if (a[j] < pivot) std::swap(a[i++], a[j]);
    }
    std::swap(a[i], a[high]);
    return i;
}

// #pragma omp parallel sections if(depth < 2), as OPARI2 instruments it.
static void quicksort(std::vector<int>& a, int low, int high, int depth) {
    if (low >= high) return;
    const int p = partition(a, low, high);
    int pomp2_if = depth < 2;
    POMP2_Task_handle pomp2_old_task = 0;
    POMP(POMP2_Parallel_fork(&r_par, pomp2_if, 2, &pomp2_old_task, CTC_PAR));
#pragma omp parallel if (pomp2_if) num_threads(2) firstprivate(pomp2_old_task)
    {
        POMP(POMP2_Parallel_begin(&r_par));
        POMP(POMP2_Sections_enter(&r_sections, CTC_SECTIONS));
#pragma omp sections nowait
        {
#pragma omp section
            {
                POMP(POMP2_Section_begin(&r_sections, CTC_SECTIONS));
                quicksort(a, low, p - 1, depth + 1);
                POMP(POMP2_Section_end(&r_sections));
            }
#pragma omp section
            {
                POMP(POMP2_Section_begin(&r_sections, CTC_SECTIONS));
                quicksort(a, p + 1, high, depth + 1);
                POMP(POMP2_Section_end(&r_sections));
            }
        }
        {
            POMP2_Task_handle pomp2_barrier_task = 0;
            POMP(POMP2_Implicit_barrier_enter(&r_sections, &pomp2_barrier_task));
#pragma omp barrier
            POMP(POMP2_Implicit_barrier_exit(&r_sections, pomp2_barrier_task));
        }
        POMP(POMP2_Sections_exit(&r_sections));
        POMP(POMP2_Parallel_end(&r_par));
    }
    POMP(POMP2_Parallel_join(&r_par, pomp2_old_task));
    (void)pomp2_old_task;
}

static void names(int count) {
    char name[32];
    const double start = omp_get_wtime();
    const std::clock_t cpu_start = std::clock();
    for (int i = 0; i < count; ++i) {
        std::snprintf(name, sizeof name, "name-%d", i);
        POMP(POMP2_USER_Begin_named(&r_named, name, "stress.c", 60));
        sink = sink + 1;
        POMP(POMP2_USER_End_named(name, "stress.c", 61));
    }
    std::printf("registration: %.3f s, cpu %.3f s\n", omp_get_wtime() - start,
                static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
}

static void parallel_team(POMP2_Region_handle* handle, const char* ctc, bool nested) {
    POMP2_Task_handle pomp2_old_task = 0;
    POMP(POMP2_Parallel_fork(handle, 1, 2, &pomp2_old_task, ctc));
#pragma omp parallel num_threads(2) firstprivate(pomp2_old_task)
    {
        POMP(POMP2_Parallel_begin(handle));
        if (nested) parallel_team(&r_inner, CTC_INNER, false);
        sink = sink + 1;
        POMP(POMP2_Parallel_end(handle));
    }
    POMP(POMP2_Parallel_join(handle, pomp2_old_task));
    (void)pomp2_old_task;
}

static void churn(int teams) {
    omp_set_max_active_levels(2);
    for (int i = 0; i < teams; ++i) parallel_team(&r_outer, CTC_OUTER, true);
}

int main(int argc, char** argv) {
    const char* scenario = argc > 1 ? argv[1] : "deep";
    const int size = argc > 2 ? std::atoi(argv[2]) : 1000;
    if (std::strcmp(scenario, "deep") == 0) {
        deep(size);
    } else if (std::strcmp(scenario, "quicksort") == 0) {
        std::vector<int> a(static_cast<std::size_t>(size));
        for (int i = 0; i < size; ++i) a[static_cast<std::size_t>(i)] = i;
        quicksort(a, 0, size - 1, 0);
        for (int i = 1; i < size; ++i) {
            if (a[static_cast<std::size_t>(i - 1)] > a[static_cast<std::size_t>(i)]) return 3;
        }
    } else if (std::strcmp(scenario, "names") == 0) {
        names(size);
    } else if (std::strcmp(scenario, "churn") == 0) {
        churn(size);
    } else {
        std::fprintf(stderr, "unknown scenario %s\n", scenario);
        return 2;
    }
    return 0;
}
