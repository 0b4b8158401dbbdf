// runtime_hotpath.cpp - what libompp costs per event, through the POMP2 C API
// (the calls instrumented code makes), and how its memory grows.
//
// Targets (issue 3): <= 40 ns per user-region enter/exit pair, <= 60 ns per
// construct instance on average; memory grows with the number of call paths,
// not with the number of events or tasks.
#include <benchmark/benchmark.h>

#include <pomp2/pomp2_lib.h>
#include <pomp2/pomp2_ompp.h>
#include <pomp2/pomp2_user_lib.h>

#include <fstream>
#include <string>

#include "adapter/lifecycle.hpp"
#include "hotpath_scenarios.hpp"

namespace {

using ompp::adapter::restart_for_testing;
using namespace ompp::bench;

void fresh_measurement() { restart_for_testing(ompp::core::Clock::calibrated(), ompp::config::Config::defaults()); }

long rss_kib() {
    std::ifstream status("/proc/self/status");
    std::string key;
    long value = 0;
    while (status >> key) {
        if (key == "VmRSS:") {
            status >> value;
            return value;
        }
        status.ignore(1 << 10, '\n');
    }
    return 0;
}

void BM_ClockRead(benchmark::State& state) {
    const auto clock = ompp::core::Clock::calibrated();
    for (auto _ : state) benchmark::DoNotOptimize(clock.now());
}
BENCHMARK(BM_ClockRead);

// POMP2_Begin/POMP2_End on a registered handle: one pair per iteration.
void BM_UserRegionEnterExitPair(benchmark::State& state) {
    fresh_measurement();
    static POMP2_USER_Region_handle handle = nullptr;
    user_region_pair(handle);
    for (auto _ : state) user_region_pair(handle);
}
BENCHMARK(BM_UserRegionEnterExitPair);

// The same one level down, among siblings (child search + predecessors).
void BM_NestedUserRegionPair(benchmark::State& state) {
    fresh_measurement();
    static POMP2_USER_Region_handle outer = nullptr, inner = nullptr, sibling = nullptr;
    POMP2_Begin(&outer, kUser.c_str());
    for (auto _ : state) {
        POMP2_Begin(&inner, kInner.c_str());
        POMP2_End(&inner);
        POMP2_Begin(&sibling, kAtomic.c_str());
        POMP2_End(&sibling);
    }
    POMP2_End(&outer);
    state.SetItemsProcessed(state.iterations() * 2);
}
BENCHMARK(BM_NestedUserRegionPair);

// Construct instances as OPARI2 instruments them.
void BM_AtomicInstance(benchmark::State& state) {
    fresh_measurement();
    static POMP2_Region_handle handle = nullptr;
    for (auto _ : state) atomic_instance(handle);
}
BENCHMARK(BM_AtomicInstance);

// ompp's default output for atomic and flush: counted, no clock.
void BM_CountedAtomicInstance(benchmark::State& state) {
    fresh_measurement();
    static POMP2_Region_handle handle = nullptr;
    for (auto _ : state) counted_atomic_instance(handle);
}
BENCHMARK(BM_CountedAtomicInstance);

void BM_CriticalInstance(benchmark::State& state) {
    fresh_measurement();
    static POMP2_Region_handle handle = nullptr;
    for (auto _ : state) critical_instance(handle);
}
BENCHMARK(BM_CriticalInstance);

void BM_LoopWithImplicitBarrierInstance(benchmark::State& state) {
    fresh_measurement();
    static POMP2_Region_handle handle = nullptr;
    for (auto _ : state) loop_with_implicit_barrier_instance(handle);
}
BENCHMARK(BM_LoopWithImplicitBarrierInstance);

// One task: create_begin/create_end by the creator, begin/end by the
// executor (here the same thread, inside a barrier: stub, instance tree,
// merge, recycling).
void BM_TaskCreateBeginEnd(benchmark::State& state) {
    fresh_measurement();
    static POMP2_Region_handle task = nullptr, loop = nullptr;
    POMP2_For_enter(&loop, kFor.c_str());
    POMP2_Task_handle old_barrier;
    POMP2_Implicit_barrier_enter(&loop, &old_barrier);
    for (auto _ : state) task_create_begin_end(task);
    POMP2_Implicit_barrier_exit(&loop, old_barrier);
    POMP2_For_exit(&loop);
}
BENCHMARK(BM_TaskCreateBeginEnd);

// Memory after N events: node count and RSS must not grow with N.
void BM_MemoryAfterEvents(benchmark::State& state) {
    fresh_measurement();
    static POMP2_USER_Region_handle user = nullptr;
    static POMP2_Region_handle task = nullptr;
    const long before = rss_kib();
    const auto events = state.range(0);
    for (auto _ : state) {
        for (std::int64_t i = 0; i < events / 6; ++i) {
            user_region_pair(user);
            task_create_begin_end(task);
        }
    }
    auto& thread = ompp::adapter::g_gate.load()->this_thread();
    state.counters["live_nodes"] = static_cast<double>(thread.live_nodes());
    state.counters["rss_growth_kib"] = static_cast<double>(rss_kib() - before);
}
BENCHMARK(BM_MemoryAfterEvents)->Arg(1'000'000)->Arg(10'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
