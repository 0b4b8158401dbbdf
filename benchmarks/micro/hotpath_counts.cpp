// hotpath_counts.cpp - runs one hot-path scenario a fixed number of times,
// for instruction counts that a loaded machine cannot blur:
//   valgrind --tool=callgrind build/bin/ompp_hotpath_counts user 1000000
// Instructions per iteration = (Ir(2N) - Ir(N)) / N; scripts/hotpath-instructions.sh
// does the arithmetic.  With OMPP_DEADLOCK=report (or abort) set, the
// deadlock hooks run too, without a watchdog thread: what they add per event.
// With OMPP_TRACE set (not 0), every event is recorded too, with the default
// trace settings (flush mode, spill files in $TMPDIR or /tmp): what a traced
// event costs.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "adapter/lifecycle.hpp"
#include "deadlock/watch.hpp"
#include "hotpath_scenarios.hpp"
#include "trace/recorder.hpp"

using namespace ompp::bench;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr,
                     "usage: %s user|atomic|counted|critical|loop|parallel|task|included|undeferred|fibcall|"
                     "undeferred-inline|fibcall-inline|fibnode|fibnode-inline|utsnode|utsdeep ITERATIONS\n",
                     argv[0]);
        return 2;
    }
    const char* scenario = argv[1];
    const long iterations = std::strtol(argv[2], nullptr, 10);
    ompp::adapter::restart_for_testing(ompp::core::Clock::calibrated(), ompp::config::Config::defaults());
    if (const char* deadlock = std::getenv("OMPP_DEADLOCK"); deadlock != nullptr && std::strcmp(deadlock, "off") != 0)
        ompp::deadlock::g_watching.store(true);
    const char* trace = std::getenv("OMPP_TRACE");
    const bool tracing = trace != nullptr && std::strcmp(trace, "0") != 0;
    if (tracing) {
        ompp::trace::Settings settings;
        if (const char* tmp = std::getenv("TMPDIR"); tmp != nullptr && *tmp != '\0') settings.spill_directory = tmp;
        ompp::trace::start(settings);
    }
    static POMP2_Region_handle handle = nullptr, loop = nullptr, taskwait = nullptr;
    const bool task = std::strcmp(scenario, "task") == 0;
    const bool fibnode = std::strcmp(scenario, "fibnode") == 0;
    const bool fibnode_inline = std::strcmp(scenario, "fibnode-inline") == 0;
    const bool utsnode = std::strcmp(scenario, "utsnode") == 0;
    // The same node inside two levels of such tasks.
    const bool utsdeep = std::strcmp(scenario, "utsdeep") == 0;
    const bool included = std::strcmp(scenario, "included") == 0;
    const bool undeferred = std::strcmp(scenario, "undeferred") == 0;
    const bool fibcall = std::strcmp(scenario, "fibcall") == 0;
    // The same as ompp-instrument writes them: counted in the instrumented code.
    const bool undeferred_inline = std::strcmp(scenario, "undeferred-inline") == 0;
    const bool fibcall_inline = std::strcmp(scenario, "fibcall-inline") == 0;
    // The children's creator is a task running at the barrier.
    const bool in_task = included || undeferred || fibcall || undeferred_inline || fibcall_inline;
    if (std::strcmp(scenario, "user") == 0) {
        for (long i = 0; i < iterations; ++i) user_region_pair(handle);
    } else if (std::strcmp(scenario, "atomic") == 0) {
        for (long i = 0; i < iterations; ++i) atomic_instance(handle);
    } else if (std::strcmp(scenario, "counted") == 0) {
        for (long i = 0; i < iterations; ++i) counted_atomic_instance(handle);
    } else if (std::strcmp(scenario, "critical") == 0) {
        for (long i = 0; i < iterations; ++i) critical_instance(handle);
    } else if (std::strcmp(scenario, "loop") == 0) {
        for (long i = 0; i < iterations; ++i) loop_with_implicit_barrier_instance(handle);
    } else if (std::strcmp(scenario, "parallel") == 0) {
        for (long i = 0; i < iterations; ++i) parallel_instance(handle);
    } else if (task || fibnode || fibnode_inline || utsnode || utsdeep || in_task) {
        // Tasks run inside a scheduling point, as in a parallel region.
        POMP2_For_enter(&loop, kFor.c_str());
        POMP2_Task_handle old_barrier;
        POMP2_Implicit_barrier_enter(&loop, &old_barrier);
        POMP2_Task_handle parent = in_task ? POMP2_Get_new_task_handle() : 0;
        if (in_task) POMP2_Task_begin(&handle, parent);
        TaskRunAtOnce enclosing[2];
        if (utsdeep)
            for (TaskRunAtOnce& level : enclosing) level = begin_task_run_at_once(handle);
        for (long i = 0; i < iterations; ++i) {
            if (task) {
                task_create_begin_end(handle);
            } else if (included) {
                included_task_in_task(handle);
            } else if (undeferred) {
                undeferred_task_in_task(handle);
            } else if (fibcall) {
                fib_call_below_cutoff(handle, taskwait);
            } else if (undeferred_inline) {
                undeferred_task_in_task<true>(handle);
            } else if (fibcall_inline) {
                fib_call_below_cutoff<true>(handle, taskwait);
            } else if (utsnode || utsdeep) {
                task_run_at_once_with_taskwait(handle, taskwait, 2);
            } else if (fibnode_inline) {
                task_with_two_children_and_taskwait<true>(handle, taskwait);
            } else {
                task_with_two_children_and_taskwait(handle, taskwait);
            }
        }
        if (utsdeep)
            for (auto level = std::rbegin(enclosing); level != std::rend(enclosing); ++level)
                end_task_run_at_once(handle, *level);
        if (in_task) POMP2_Task_end(&handle);
        POMP2_Implicit_barrier_exit(&loop, old_barrier);
        POMP2_For_exit(&loop);
    } else {
        std::fprintf(stderr, "%s: unknown scenario '%s'\n", argv[0], scenario);
        return 2;
    }
    if (tracing) ompp::trace::stop();
    return 0;
}
