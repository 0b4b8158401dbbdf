// Deadlock detection's wait-for graph, driven through the event hooks by
// threads that only pretend to wait (nothing blocks): what the watchdog
// reports, and when it must not.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "deadlock/watch.hpp"
#include "deadlock/watchdog.hpp"

namespace {

using namespace ompp::deadlock;
using Catch::Contains;
using ompp::core::RegionRecord;
using ompp::model::RegionKind;

// A thread that runs what it is given, one step at a time, and lives (its
// slot with it) until the test ends.
class Actor {
public:
    Actor() : thread_([this] { serve(); }) {}
    ~Actor() {
        run({});
        thread_.join();
    }
    Actor(const Actor&) = delete;
    Actor& operator=(const Actor&) = delete;

    // Runs `step` on the actor's thread and waits for it (an empty step ends the thread).
    void run(std::function<void()> step) {
        std::unique_lock lock(mutex_);
        steps_.push_back(std::move(step));
        changed_.notify_all();
        changed_.wait(lock, [&] { return steps_.empty() && !busy_; });
    }

private:
    void serve() {
        for (;;) {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return !steps_.empty(); });
            std::function<void()> step = std::move(steps_.front());
            busy_ = true;
            steps_.pop_front();
            lock.unlock();
            if (step) step();
            lock.lock();
            busy_ = false;
            changed_.notify_all();
            if (!step) return;
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::function<void()>> steps_;
    bool busy_ = false;
    std::thread thread_;
};

void set_region(RegionRecord& region, RegionKind kind, int line, std::optional<std::string> name = {}) {
    region.info.kind = kind;
    region.info.directive = {"deadlock_test.c", line, line};
    region.info.name = std::move(name);
}

struct Regions {
    RegionRecord parallel, barrier, other_barrier, critical, same_name_critical;
    Regions() {
        set_region(parallel, RegionKind::Parallel, 10);
        set_region(barrier, RegionKind::Barrier, 20);
        set_region(other_barrier, RegionKind::Barrier, 30);
        set_region(critical, RegionKind::Critical, 40, "guard");
        set_region(same_name_critical, RegionKind::Critical, 50, "guard");
    }
};

int lock_a, lock_b, lock_c;  // their addresses are the locks

void join_team(const Regions& regions, std::uint64_t key, int thread_num) {
    team_begin({&regions.parallel, key, 1, thread_num, 2});
}

// A team of two forked at `key`: `zero` and `one` begin their implicit tasks.
void form_team(const Regions& regions, std::uint64_t key, Actor& zero, Actor& one) {
    team_forked(key);
    zero.run([&] { join_team(regions, key, 0); });
    one.run([&] { join_team(regions, key, 1); });
}

// The detector of these tests reports at the second scan.
Detector detector() { return Detector(std::chrono::steady_clock::duration::zero()); }

std::optional<std::string> twice(Detector& detector) {
    detector.scan();
    return detector.scan();
}


// Each holds one lock and waits for the other's.
void lock_order_inversion(Actor& first, Actor& second) {
    first.run([] { lock_acquired(&lock_a, false, nullptr); });
    second.run([] { lock_acquired(&lock_b, false, nullptr); });
    first.run([] { lock_waiting(&lock_b, false, nullptr); });
    second.run([] { lock_waiting(&lock_a, false, nullptr); });
}

}  // namespace

TEST_CASE("a lock-order cycle is reported at the second scan that finds it", "[deadlock]") {
    Actor first, second;
    lock_order_inversion(first, second);
    Detector detector = ::detector();
    CHECK_FALSE(detector.scan());
    const auto report = detector.scan();
    REQUIRE(report);
    CHECK_THAT(*report, Contains("2 thread(s) can never go on"));
    CHECK_THAT(*report, Contains("waits in omp_set_lock"));
    // Not before the settling time.
    Detector patient(std::chrono::hours(1));
    CHECK_FALSE(twice(patient));
}

TEST_CASE("a cycle whose thread had an event between two scans waits for the next scan", "[deadlock]") {
    Actor first, second;
    lock_order_inversion(first, second);
    Detector detector = ::detector();
    CHECK_FALSE(detector.scan());
    second.run([] { lock_waiting(&lock_a, false, nullptr); });  // the same wait, published again
    CHECK_FALSE(detector.scan());
    CHECK(detector.scan());
}

TEST_CASE("a wait for a holder that runs is never reported, nor a nest lock re-entered", "[deadlock]") {
    Actor holder, waiter;
    holder.run([] {
        lock_acquired(&lock_a, false, nullptr);
        lock_acquired(&lock_b, true, nullptr);
        lock_waiting(&lock_b, true, nullptr);  // its own nest lock: entered at once
    });
    waiter.run([] { lock_waiting(&lock_a, false, nullptr); });
    Detector detector = ::detector();
    for (int scan = 0; scan < 3; ++scan) CHECK_FALSE(detector.scan());
    // The holder now waits for a lock nobody holds: still nothing.
    holder.run([] { lock_waiting(&lock_c, false, nullptr); });
    CHECK_FALSE(twice(detector));
}

TEST_CASE("critical sections are one by name", "[deadlock]") {
    const Regions regions;
    Actor first, second;
    first.run([&] { critical_acquired(regions.critical); });
    second.run([&] { lock_acquired(&lock_a, false, nullptr); });
    first.run([] { lock_waiting(&lock_a, false, nullptr); });
    second.run([&] { critical_waiting(regions.same_name_critical); });
    Detector detector = ::detector();
    const auto report = twice(detector);
    REQUIRE(report);
    CHECK_THAT(*report, Contains("waits to enter critical section 'guard' at deadlock_test.c:50"));
    CHECK_THAT(*report, Contains("holds critical section 'guard', entered at deadlock_test.c:40"));
}

TEST_CASE("a barrier a member left the team before is reported; one it passed is not", "[deadlock]") {
    const Regions regions;
    constexpr std::uint64_t key = 0x5eed;
    Actor waiter, member;
    form_team(regions, key, waiter, member);
    Detector detector = ::detector();
    SECTION("left without it") {
        member.run([&] {
            barrier_waiting(regions.other_barrier);
            barrier_passed();
            team_end();
        });
        waiter.run([&] {
            barrier_waiting(regions.barrier);
            barrier_passed();
            barrier_waiting(regions.barrier);
        });
        const auto report = twice(detector);
        REQUIRE(report);
        CHECK_THAT(*report, Contains("waits at the barrier at deadlock_test.c:20, barrier 2 of its team"));
        CHECK_THAT(*report, Contains("can never arrive: it left the team after 1 barrier(s)"));
        CHECK_THAT(*report, Contains("barrier 1 was the barrier at deadlock_test.c:20 for this thread but "
                                     "the barrier at deadlock_test.c:30"));
    }
    SECTION("passed it, or ended an earlier team here") {
        member.run([&] {
            barrier_waiting(regions.barrier);
            barrier_passed();
            team_end();
        });
        waiter.run([&] { barrier_waiting(regions.barrier); });
        CHECK_FALSE(twice(detector));
        team_forked(key);  // the next team at the same place, which the member has not begun yet
        waiter.run([&] {
            team_end();
            join_team(regions, key, 0);
            barrier_waiting(regions.barrier);
            barrier_passed();
            barrier_waiting(regions.barrier);
        });
        CHECK_FALSE(twice(detector));
    }
}

TEST_CASE("a thread running a task at a barrier does not wait there", "[deadlock]") {
    const Regions regions;
    constexpr std::uint64_t key = 0xbee;
    Actor at_barrier, on_its_way;
    form_team(regions, key, at_barrier, on_its_way);
    // The task at the barrier holds the lock the other thread waits for.
    at_barrier.run([&] {
        barrier_waiting(regions.barrier);
        task_began();
        lock_acquired(&lock_a, false, nullptr);
    });
    on_its_way.run([] { lock_waiting(&lock_a, false, nullptr); });
    Detector detector = ::detector();
    CHECK_FALSE(twice(detector));
    // The task ends without releasing it: now the barrier waits for a thread that waits for it.
    at_barrier.run([] { task_ended(); });
    const auto report = twice(detector);
    REQUIRE(report);
    CHECK_THAT(*report, Contains("for thread 1 (level 1"));
}

TEST_CASE("a wait is seen beyond the holds seen, and a release out of order keeps the others", "[deadlock]") {
    static int locks[kMaxHeld + 2];  // their addresses are the locks
    int& waited_for = locks[kMaxHeld];
    int& released = locks[kMaxHeld + 1];
    Actor many, other;
    many.run([&] {
        lock_acquired(&released, false, nullptr);
        for (std::size_t i = 0; i < kMaxHeld; ++i) lock_acquired(&locks[i], false, nullptr);
        lock_released(&released, false);  // not the latest: the entries above move down
    });
    other.run([&] { lock_acquired(&waited_for, false, nullptr); });
    // One more held than seen, then the wait: in the spare entry.
    many.run([&] { lock_acquired(&released, false, nullptr); });
    many.run([&] { lock_waiting(&waited_for, false, nullptr); });
    other.run([&] { lock_waiting(&locks[0], false, nullptr); });
    Detector detector = ::detector();
    const auto report = twice(detector);
    REQUIRE(report);
    CHECK_THAT(*report, Contains("2 thread(s) can never go on"));
    CHECK_THAT(*report, Contains(fmt::format("lock {}", static_cast<const void*>(&waited_for))));
    CHECK_THAT(*report, Contains(fmt::format("holds lock {}", static_cast<const void*>(&locks[0]))));
    CHECK_THAT(*report, !Contains(fmt::format("holds lock {}", static_cast<const void*>(&released))));
}
