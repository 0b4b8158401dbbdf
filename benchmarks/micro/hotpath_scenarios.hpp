// hotpath_scenarios.hpp - one iteration of each measured event sequence,
// shared by the Google Benchmark (ns per iteration) and the fixed-count
// driver run under callgrind (instructions per iteration).
#pragma once

#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <string>

namespace ompp::bench {

inline std::string ctc(const std::string& body) { return std::to_string(body.size()) + body; }

inline const std::string kUser = ctc("*regionType=userRegion*sscl=b.c:1:1*escl=b.c:9:9*userRegionName=hot**");
inline const std::string kInner = ctc("*regionType=userRegion*sscl=b.c:2:2*escl=b.c:3:3*userRegionName=inner**");
inline const std::string kAtomic = ctc("*regionType=atomic*sscl=b.c:4:4*escl=b.c:4:4**");
inline const std::string kAtomicCounted = ctc("*regionType=atomic*sscl=b.c:5:5*escl=b.c:5:5*timing=count**");
inline const std::string kCritical = ctc("*regionType=critical*sscl=b.c:5:5*escl=b.c:7:7**");
inline const std::string kFor = ctc("*regionType=for*sscl=b.c:10:10*escl=b.c:12:12**");
inline const std::string kParallel = ctc("*regionType=parallel*sscl=b.c:16:16*escl=b.c:18:18**");
inline const std::string kTask = ctc("*regionType=task*sscl=b.c:13:13*escl=b.c:14:14**");
inline const std::string kTaskwait = ctc("*regionType=taskwait*sscl=b.c:15:15*escl=b.c:15:15**");

// POMP2_Begin/POMP2_End on a registered handle: one user-region pair.
inline void user_region_pair(POMP2_USER_Region_handle& handle) {
    POMP2_Begin(&handle, kUser.c_str());
    POMP2_End(&handle);
}

inline void atomic_instance(POMP2_Region_handle& handle) {
    POMP2_Atomic_enter(&handle, kAtomic.c_str());
    POMP2_Atomic_exit(&handle);
}

// ompp's default output for atomic and flush: one count, no clock.
inline void counted_atomic_instance(POMP2_Region_handle& handle) { POMP2_Atomic_count(&handle, kAtomicCounted.c_str()); }

inline void critical_instance(POMP2_Region_handle& handle) {
    POMP2_Critical_enter(&handle, kCritical.c_str());
    POMP2_Critical_begin(&handle);
    POMP2_Critical_end(&handle);
    POMP2_Critical_exit(&handle);
}

inline void loop_with_implicit_barrier_instance(POMP2_Region_handle& handle) {
    POMP2_For_enter(&handle, kFor.c_str());
    POMP2_Task_handle old_task;
    POMP2_Implicit_barrier_enter(&handle, &old_task);
    POMP2_Implicit_barrier_exit(&handle, old_task);
    POMP2_For_exit(&handle);
}

// One parallel region instance as the master of a team of one sees it:
// fork, begin, the implicit barrier, end, join.
inline void parallel_instance(POMP2_Region_handle& handle) {
    POMP2_Task_handle old_task, barrier_task;
    POMP2_Parallel_fork(&handle, 1, 1, &old_task, kParallel.c_str());
    POMP2_Parallel_begin(&handle);
    POMP2_Implicit_barrier_enter(&handle, &barrier_task);
    POMP2_Implicit_barrier_exit(&handle, barrier_task);
    POMP2_Parallel_end(&handle);
    POMP2_Parallel_join(&handle, old_task);
}

// Create, begin and end one task on the creating thread (call inside a
// scheduling point: stub, instance tree, merge, recycling).
inline void task_create_begin_end(POMP2_Region_handle& task) {
    POMP2_Task_handle old_task, new_task;
    POMP2_Task_create_begin(&task, &new_task, &old_task, 1, kTask.c_str());
    POMP2_Task_create_end(&task, old_task);
    POMP2_Task_begin(&task, new_task);
    POMP2_Task_end(&task);
}

// One task created by a running task that the OpenMP runtime runs at once
// inside its creation (the instrumented code could not tell in advance).
inline void included_task_in_task(POMP2_Region_handle& task) {
    POMP2_Task_handle creator, child;
    POMP2_Task_create_begin(&task, &child, &creator, 1, kTask.c_str());
    POMP2_Task_begin(&task, child);
    POMP2_Task_end(&task);
    POMP2_Task_create_end(&task, creator);
}

// An undeferred (`if(0)`) task's creation and a taskwait that has nothing
// to wait for: with Inline as ompp-instrument writes them
// (POMP2_Task_create_begin_fast, POMP2_Taskwait_begin_fast: counted in the
// instrumented code while libompp's cache allows), otherwise the calls
// alone, each counted in libompp without a clock.
template <bool Inline>
void create_undeferred_task(POMP2_Region_handle& task, POMP2_Task_handle& child, POMP2_Task_handle& creator) {
    if constexpr (Inline) {
        POMP2_Task_create_begin_fast(&task, &child, &creator, 0, 0, kTask.c_str(), 0);
    } else {
        POMP2_Task_create_begin_final(&task, &child, &creator, 0, 0, kTask.c_str());
    }
}
template <bool Inline>
void begin_taskwait(POMP2_Region_handle& taskwait, POMP2_Task_handle& current) {
    if constexpr (Inline) {
        POMP2_Taskwait_begin_fast(&taskwait, &current, kTaskwait.c_str(), 1);
    } else {
        POMP2_Taskwait_begin(&taskwait, &current, kTaskwait.c_str());
    }
}

// One undeferred (`if(0)`) task created by a running task, its clauses
// passed (ompp's output): counted without a clock.
template <bool Inline = false>
void undeferred_task_in_task(POMP2_Region_handle& task) {
    POMP2_Task_handle creator, child;
    create_undeferred_task<Inline>(task, child, creator);
    if (child != POMP2_UNTIMED_TASK) POMP2_Task_begin(&task, child);  // as ompp-instrument's output
    if (child != POMP2_UNTIMED_TASK) POMP2_Task_end(&task);
    if (!POMP2_UNTIMED_DONE(creator)) POMP2_Task_create_end(&task, creator);
}

// One call of fib below a BOTS `if` cut-off: an undeferred task whose body
// ends with a taskwait that has nothing to wait for (its children, the next
// calls, were undeferred too).
template <bool Inline = false>
void fib_call_below_cutoff(POMP2_Region_handle& task, POMP2_Region_handle& taskwait) {
    POMP2_Task_handle creator, child, current;
    create_undeferred_task<Inline>(task, child, creator);
    if (child != POMP2_UNTIMED_TASK) POMP2_Task_begin(&task, child);
    begin_taskwait<Inline>(taskwait, current);
    if (!POMP2_UNTIMED_DONE(current)) POMP2_Taskwait_end(&taskwait, current);
    if (child != POMP2_UNTIMED_TASK) POMP2_Task_end(&task);
    if (!POMP2_UNTIMED_DONE(creator)) POMP2_Task_create_end(&task, creator);
}

// A deferred task's creation: with Inline as ompp-instrument writes it
// (POMP2_Task_create_begin_fast and POMP2_Task_create_end_fast: its end
// closed in the instrumented code while nothing happened since its begin),
// otherwise the calls alone.
template <bool Inline>
void create_deferred_task(POMP2_Region_handle& task, POMP2_Task_handle& child) {
    POMP2_Task_handle creator;
    if constexpr (Inline) {
        POMP2_Task_create_begin_fast(&task, &child, &creator, 1, 0, kTask.c_str(), 0);
        POMP2_Task_create_end_fast(&task, creator);
    } else {
        POMP2_Task_create_begin(&task, &child, &creator, 1, kTask.c_str());
        POMP2_Task_create_end(&task, creator);
    }
}

// One node of fib without cut-off: a task that creates two child tasks of
// its own construct and waits for them; they run at the taskwait (deferred),
// so the parent is suspended meanwhile.  Three task instances.  With Inline
// as ompp-instrument writes it.
template <bool Inline = false>
void task_with_two_children_and_taskwait(POMP2_Region_handle& task, POMP2_Region_handle& taskwait) {
    POMP2_Task_handle parent;
    create_deferred_task<Inline>(task, parent);
    POMP2_Task_begin(&task, parent);
    POMP2_Task_handle children[2];
    for (POMP2_Task_handle& child : children) create_deferred_task<Inline>(task, child);
    POMP2_Task_handle waiting;
    begin_taskwait<Inline>(taskwait, waiting);
    for (POMP2_Task_handle child : children) {
        POMP2_Task_begin(&task, child);
        POMP2_Task_end(&task);
    }
    if (!Inline || !POMP2_UNTIMED_DONE(waiting)) POMP2_Taskwait_end(&taskwait, waiting);
    POMP2_Task_end(&task);
}

// A task run at once inside its creation, as libgomp runs BOTS UTS's (a
// deferrable task, begun before its creation ends), as ompp-instrument
// writes it: its creation begun and the task begun (begin_task_run_at_once),
// left open until end_task_run_at_once.  UTS with libgomp runs nearly every
// node deep in a chain of such tasks (its profile folds 195 levels), where
// a creation's frame folds into the node of the creation around it.
struct TaskRunAtOnce {
    POMP2_Task_handle creator;
    POMP2_Task_handle child;
};
inline TaskRunAtOnce begin_task_run_at_once(POMP2_Region_handle& task) {
    TaskRunAtOnce run;
    POMP2_Task_create_begin_fast(&task, &run.child, &run.creator, 1, 0, kTask.c_str(), 0);
    if (run.child != POMP2_UNTIMED_TASK) POMP2_Task_begin(&task, run.child);
    return run;
}
inline void end_task_run_at_once(POMP2_Region_handle& task, const TaskRunAtOnce& run) {
    if (run.child != POMP2_UNTIMED_TASK) POMP2_Task_end(&task);
    POMP2_Task_create_end_fast(&task, run.creator);
}

// Such a task that creates `children` such tasks without children and then
// waits for them: every task it waits for ran at once.
inline void task_run_at_once_with_taskwait(POMP2_Region_handle& task, POMP2_Region_handle& taskwait, int children) {
    const TaskRunAtOnce run = begin_task_run_at_once(task);
    for (int i = 0; i < children; ++i) task_run_at_once_with_taskwait(task, taskwait, 0);
    POMP2_Task_handle current;
    begin_taskwait<true>(taskwait, current);
    if (!POMP2_UNTIMED_DONE(current)) POMP2_Taskwait_end(&taskwait, current);
    end_task_run_at_once(task, run);
}

}  // namespace ompp::bench
