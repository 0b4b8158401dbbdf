#include "trace/otf2_archive.hpp"

#include <otf2/otf2.h>

#include "platform/kernel_io.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "model/names.hpp"
#include "trace/recorder.hpp"

namespace ompp::trace {
namespace {

using model::RegionKind;

// Three OTF2 regions per ompp region: the construct (enter..exit), its body
// (critical/ordered/single/section sblock, a task's execution), and the
// implicit barrier at its end.  Region ids count from 1; OTF2 references
// from 0, defined in order.
enum class Part : std::uint32_t { Construct = 0, Body = 1, ImplicitBarrier = 2 };
OTF2_RegionRef region_ref(std::uint32_t region, Part part) {
    return (region - 1) * 3 + static_cast<std::uint32_t>(part);
}

OTF2_RegionRole construct_role(RegionKind kind) {
    switch (kind) {
    case RegionKind::Parallel:
    case RegionKind::ParallelLoop:
    case RegionKind::ParallelSections:
    case RegionKind::ParallelMaster: return OTF2_REGION_ROLE_PARALLEL;
    case RegionKind::Loop: return OTF2_REGION_ROLE_LOOP;
    case RegionKind::Sections: return OTF2_REGION_ROLE_SECTIONS;
    case RegionKind::Section: return OTF2_REGION_ROLE_SECTION;
    case RegionKind::Single: return OTF2_REGION_ROLE_SINGLE;
    case RegionKind::Master:
    case RegionKind::Masked: return OTF2_REGION_ROLE_MASTER;
    case RegionKind::Critical: return OTF2_REGION_ROLE_CRITICAL;
    case RegionKind::Atomic: return OTF2_REGION_ROLE_ATOMIC;
    case RegionKind::Flush: return OTF2_REGION_ROLE_FLUSH;
    case RegionKind::Barrier: return OTF2_REGION_ROLE_BARRIER;
    case RegionKind::Ordered: return OTF2_REGION_ROLE_ORDERED;
    case RegionKind::Task: return OTF2_REGION_ROLE_TASK_CREATE;
    case RegionKind::Taskwait: return OTF2_REGION_ROLE_TASK_WAIT;
    case RegionKind::Taskgroup: return OTF2_REGION_ROLE_TASK_WAIT;
    case RegionKind::Taskloop: return OTF2_REGION_ROLE_LOOP;
    case RegionKind::Workshare: return OTF2_REGION_ROLE_WORKSHARE;
    case RegionKind::Lock: return OTF2_REGION_ROLE_WRAPPER;
    case RegionKind::UserRegion: return OTF2_REGION_ROLE_CODE;
    default: return OTF2_REGION_ROLE_UNKNOWN;
    }
}

OTF2_RegionRole body_role(RegionKind kind) {
    switch (kind) {
    case RegionKind::Critical: return OTF2_REGION_ROLE_CRITICAL_SBLOCK;
    case RegionKind::Ordered: return OTF2_REGION_ROLE_ORDERED_SBLOCK;
    case RegionKind::Single: return OTF2_REGION_ROLE_SINGLE_SBLOCK;
    case RegionKind::Sections: return OTF2_REGION_ROLE_SECTION;
    case RegionKind::Task:
    case RegionKind::Taskloop: return OTF2_REGION_ROLE_TASK;
    default: return OTF2_REGION_ROLE_CODE;
    }
}

// Score-P's names: "!$omp critical @file:line"; a user region's own name.
std::string kind_label(const model::Region& region) {
    std::string label = fmt::format("!$omp {}", model::to_string(region.kind));
    std::transform(label.begin(), label.end(), label.begin(), [](unsigned char c) { return std::tolower(c); });
    std::replace(label.begin(), label.end(), '_', ' ');
    if (region.name && !region.name->empty()) label += fmt::format(" ({})", *region.name);
    return label;
}
std::string at(const model::Region& region) {
    return fmt::format(" @{}:{}", region.directive.file, region.directive.first_line);
}

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

struct ArchiveCloser {
    void operator()(OTF2_Archive* archive) const { OTF2_Archive_Close(archive); }
};

// The OTF2 task identity of an ompp task handle: (creating thread, its
// count); the implicit task of a thread (handle 0 or an unmeasured task) is
// (that thread, 0).
struct TaskId {
    std::uint32_t creator;
    std::uint32_t generation;
};
TaskId task_id(std::uint64_t handle, std::uint32_t thread) {
    const auto value = static_cast<std::int64_t>(handle);
    if (value <= 0) return {thread, 0};
    return {static_cast<std::uint32_t>((handle >> 40) - 1), static_cast<std::uint32_t>(handle & 0xffffffffU)};
}

// Thread teams: one OTF2 communicator per thread that forks, "team of
// thread N" (the comm's index is the thread's location index), so that a
// reader finds each team's master from its ThreadTeamBegin.
using TeamOf = std::unordered_map<std::uint32_t, OTF2_CommRef>;

using Regions = std::unordered_map<std::uint32_t, const model::Region*>;

// Critical and ordered bodies hold a lock (Score-P: one per critical name),
// keyed apart from lock addresses.
std::optional<std::uint64_t> lock_key(const TraceEvent& r, const Regions& regions) {
    if (r.event == Event::LockAcquire || r.event == Event::LockRelease) return r.value;
    if (r.event != Event::BodyBegin && r.event != Event::BodyEnd) return std::nullopt;
    const auto it = regions.find(r.region);
    if (it == regions.end() || (it->second->kind != RegionKind::Critical && it->second->kind != RegionKind::Ordered))
        return std::nullopt;
    return ~std::uint64_t{0} - r.region;
}
bool acquires(const TraceEvent& r) { return r.event == Event::LockAcquire || r.event == Event::BodyBegin; }

// OTF2 lock ids (dense) and acquisition orders: per lock, every thread's
// acquisitions numbered in time order, found in a pass over all records
// before the events are written thread by thread.
class Locks {
public:
    Locks(const std::vector<std::uint32_t>& threads, const Regions& regions) {
        struct Acquisition {
            std::uint64_t key;
            std::uint64_t time;
            std::uint32_t thread;
        };
        std::vector<Acquisition> all;
        for (const std::uint32_t thread : threads) {
            read_events(thread, [&](const TraceEvent& r) {
                if (const auto key = lock_key(r, regions); key && acquires(r)) all.push_back({*key, r.time, thread});
            });
        }
        std::stable_sort(all.begin(), all.end(), [](const Acquisition& a, const Acquisition& b) {
            return a.key != b.key ? a.key < b.key : a.time < b.time;
        });
        std::uint32_t order = 0;
        for (std::size_t i = 0; i < all.size(); ++i) {
            order = i > 0 && all[i - 1].key == all[i].key ? order + 1 : 0;
            orders_[{all[i].thread, all[i].key}].push_back(order);
            id(all[i].key);
        }
    }
    std::uint32_t id(std::uint64_t key) {
        return ids_.try_emplace(key, static_cast<std::uint32_t>(ids_.size())).first->second;
    }
    // The order of `thread`'s next acquisition of `key`.
    std::uint32_t next_order(std::uint32_t thread, std::uint64_t key) {
        auto& orders = orders_[{thread, key}];
        auto& next = next_[{thread, key}];
        return next < orders.size() ? orders[next++] : static_cast<std::uint32_t>(next++);
    }

private:
    std::unordered_map<std::uint64_t, std::uint32_t> ids_;
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::vector<std::uint32_t>> orders_;
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> next_;
};

// One location's events: the recorded records mapped, in order.
class LocationWriter {
public:
    LocationWriter(OTF2_EvtWriter* writer, std::uint32_t thread, const Regions& regions, const TeamOf& team_of,
                   Locks& locks, std::uint64_t start)
        : writer_(writer), thread_(thread), regions_(regions), team_of_(team_of), locks_(locks), start_(start) {
        teams_.push_back(comm_of(thread));
    }

    void write(const TraceEvent& r) {
        ++records_;
        // The team ends before anything but the tasks of its join barrier, when the last of them ended.
        if (pending_team_end_ && running_.empty() && r.event != Event::TaskBegin) end_team(last_);
        const OTF2_TimeStamp time = std::max<OTF2_TimeStamp>(r.time >= start_ ? r.time - start_ : 0, last_);
        last_ = time;
        switch (r.event) {
        case Event::Enter: enter(time, region_ref(r.region, Part::Construct)); break;
        case Event::Leave: leave(time, region_ref(r.region, Part::Construct)); break;
        case Event::BodyBegin:
            if (const auto key = lock_key(r, regions_)) acquire(time, *key);
            enter(time, region_ref(r.region, Part::Body));
            break;
        case Event::BodyEnd:
            leave(time, region_ref(r.region, Part::Body));
            if (const auto key = lock_key(r, regions_)) release(time, *key);
            break;
        case Event::BarrierEnter: enter(time, region_ref(r.region, Part::ImplicitBarrier)); break;
        case Event::BarrierLeave:
            switch_to(time, r.value);
            leave(time, region_ref(r.region, Part::ImplicitBarrier));
            break;
        case Event::SchedulingLeave:
            switch_to(time, r.value);
            leave(time, region_ref(r.region, Part::Construct));
            break;
        case Event::Fork:
            count(OTF2_EvtWriter_ThreadFork(writer_, nullptr, time, OTF2_PARADIGM_OPENMP,
                                            static_cast<std::uint32_t>(r.value)));
            break;
        case Event::Join: count(OTF2_EvtWriter_ThreadJoin(writer_, nullptr, time, OTF2_PARADIGM_OPENMP)); break;
        case Event::TeamBegin:
            teams_.push_back(comm_of(static_cast<std::uint32_t>(r.value)));
            count(OTF2_EvtWriter_ThreadTeamBegin(writer_, nullptr, time, teams_.back()));
            enter(time, region_ref(r.region, Part::Construct));
            break;
        case Event::TeamEnd:
            // A thread's Parallel_end comes before the OpenMP runtime's join barrier, where it may still run
            // the team's tasks: those belong inside the parallel region and the team (write() ends it).
            pending_team_end_ = PendingTeamEnd{region_ref(r.region, Part::Construct), current_};
            break;
        case Event::TaskCreate: {
            enter(time, region_ref(r.region, Part::Construct));
            const TaskId task = task_id(r.value, thread_);
            count(OTF2_EvtWriter_ThreadTaskCreate(writer_, nullptr, time, teams_.back(), task.creator,
                                                  task.generation));
            break;
        }
        case Event::TaskBegin:
            switch_to(time, r.value);
            running_.push_back(r.value);
            enter(time, region_ref(r.region, Part::Body));
            break;
        case Event::TaskEnd: {
            leave(time, region_ref(r.region, Part::Body));
            const std::uint64_t finished = running_.empty() ? 0 : running_.back();
            if (!running_.empty()) running_.pop_back();
            open_.erase(finished);
            const TaskId task = task_id(finished, thread_);
            count(OTF2_EvtWriter_ThreadTaskComplete(writer_, nullptr, time, teams_.back(), task.creator,
                                                    task.generation));
            current_ = kNoTask;
            break;
        }
        case Event::Resume: switch_to(time, r.value); break;
        case Event::LockRequest: enter(time, region_ref(r.region, Part::Construct)); break;
        case Event::LockAcquire:
            acquire(time, r.value);
            leave(time, region_ref(r.region, Part::Construct));
            break;
        case Event::LockRelease: release(time, r.value); break;
        }
    }

    // Program end: regions still open (the program was interrupted there, or
    // memory mode dropped their end) are left at `end`, as the profile closes them.
    void close_open_regions(OTF2_TimeStamp end) {
        if (pending_team_end_) end_team(last_);
        end = std::max(end, last_);
        for (auto& [task, open] : open_) {
            if (open.empty()) continue;
            switch_to(end, task);
            while (!open.empty()) {
                const OTF2_RegionRef region = open.back();
                open.pop_back();
                count(OTF2_EvtWriter_Leave(writer_, nullptr, end, region));
            }
        }
    }

    std::uint64_t events() const { return events_; }
    std::uint64_t records() const { return records_; }

private:
    static constexpr std::uint64_t kNoTask = ~std::uint64_t{0};

    void count(OTF2_ErrorCode) { ++events_; }
    OTF2_CommRef comm_of(std::uint32_t thread) const {
        const auto it = team_of_.find(thread);
        return it != team_of_.end() ? it->second : 0;
    }
    void enter(OTF2_TimeStamp time, OTF2_RegionRef region) {
        open_[current_].push_back(region);
        count(OTF2_EvtWriter_Enter(writer_, nullptr, time, region));
    }
    void leave(OTF2_TimeStamp time, OTF2_RegionRef region) {
        auto& open = open_[current_];
        if (!open.empty() && open.back() == region) open.pop_back();
        count(OTF2_EvtWriter_Leave(writer_, nullptr, time, region));
    }
    void acquire(OTF2_TimeStamp time, std::uint64_t key) {
        const std::uint32_t order = locks_.next_order(thread_, key);
        held_[key].push_back(order);
        count(OTF2_EvtWriter_ThreadAcquireLock(writer_, nullptr, time, OTF2_PARADIGM_OPENMP, locks_.id(key), order));
    }
    // A release carries its acquisition's order (nest locks: the innermost).
    void release(OTF2_TimeStamp time, std::uint64_t key) {
        auto& held = held_[key];
        const std::uint32_t order = held.empty() ? 0 : held.back();
        if (!held.empty()) held.pop_back();
        count(OTF2_EvtWriter_ThreadReleaseLock(writer_, nullptr, time, OTF2_PARADIGM_OPENMP, locks_.id(key), order));
    }
    void end_team(OTF2_TimeStamp time) {
        switch_to(time, pending_team_end_->task);
        leave(time, pending_team_end_->parallel);
        count(OTF2_EvtWriter_ThreadTeamEnd(writer_, nullptr, time, teams_.back()));
        if (teams_.size() > 1) teams_.pop_back();
        pending_team_end_.reset();
    }
    void switch_to(OTF2_TimeStamp time, std::uint64_t handle) {
        const std::uint64_t task = static_cast<std::int64_t>(handle) <= 0 ? 0 : handle;
        if (task == current_) return;
        current_ = task;
        const TaskId id = task_id(task, thread_);
        count(OTF2_EvtWriter_ThreadTaskSwitch(writer_, nullptr, time, teams_.back(), id.creator, id.generation));
    }

    OTF2_EvtWriter* writer_;
    std::uint32_t thread_;
    const Regions& regions_;
    const TeamOf& team_of_;
    Locks& locks_;
    std::uint64_t start_;
    OTF2_TimeStamp last_ = 0;  // OTF2 wants each location's times in order
    std::vector<OTF2_CommRef> teams_;  // the teams this thread is in, innermost last
    std::uint64_t current_ = 0;  // the implicit task
    std::vector<std::uint64_t> running_;  // explicit tasks begun on this thread, innermost last
    struct PendingTeamEnd {
        OTF2_RegionRef parallel;
        std::uint64_t task;  // the implicit task that ended it
    };
    std::optional<PendingTeamEnd> pending_team_end_;  // a TeamEnd not written yet (see Event::TeamEnd)
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> held_;  // lock -> orders held, innermost last
    std::map<std::uint64_t, std::vector<OTF2_RegionRef>> open_;  // task -> regions open in it, innermost last
    std::uint64_t events_ = 0;
    std::uint64_t records_ = 0;
};

class Definitions {
public:
    explicit Definitions(OTF2_GlobalDefWriter* writer) : writer_(writer) {}
    OTF2_StringRef string(std::string_view text) {
        const auto [it, added] = strings_.try_emplace(std::string(text), static_cast<OTF2_StringRef>(strings_.size()));
        if (added) OTF2_GlobalDefWriter_WriteString(writer_, it->second, it->first.c_str());
        return it->second;
    }
    OTF2_GlobalDefWriter* writer() const { return writer_; }

private:
    OTF2_GlobalDefWriter* writer_;
    std::unordered_map<std::string, OTF2_StringRef> strings_;
};

void write_regions(Definitions& defs, std::vector<model::Region> regions) {
    std::sort(regions.begin(), regions.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    for (const model::Region& region : regions) {
        const OTF2_StringRef file = defs.string(region.directive.file);
        const auto first = static_cast<std::uint32_t>(std::max(region.directive.first_line, 0));
        const auto last = static_cast<std::uint32_t>(std::max(region.block_end.last_line, region.directive.first_line));
        const OTF2_Paradigm paradigm =
            region.kind == RegionKind::UserRegion ? OTF2_PARADIGM_USER : OTF2_PARADIGM_OPENMP;
        const auto write = [&](Part part, const std::string& part_name, OTF2_RegionRole role) {
            const OTF2_StringRef text = defs.string(part_name);
            OTF2_GlobalDefWriter_WriteRegion(defs.writer(), region_ref(region.id, part), text, text, defs.string(""),
                                             role, paradigm, OTF2_REGION_FLAG_NONE, file, first, last);
        };
        // Unused parts are defined too: OTF2 wants references defined in order.
        const bool user = region.kind == RegionKind::UserRegion && region.name;
        const std::string label = user ? *region.name : kind_label(region);
        const std::string where = user ? std::string() : at(region);
        const bool task = region.kind == RegionKind::Task || region.kind == RegionKind::Taskloop;
        write(Part::Construct, (task ? label + " create" : label) + where, construct_role(region.kind));
        write(Part::Body, (task ? label : label + " sblock") + where, body_role(region.kind));
        write(Part::ImplicitBarrier, "!$omp implicit barrier" + at(region), OTF2_REGION_ROLE_IMPLICIT_BARRIER);
    }
}

}  // namespace

ArchiveResult write_otf2(const ArchiveRequest& request) {
    ArchiveResult result;
    struct stat existing {};
    if (platform::kernel_io::stat(request.path.c_str(), &existing) == 0) {
        result.error = fmt::format("{} exists", request.path);
        return result;
    }
    const std::filesystem::path path(request.path);
    std::unique_ptr<OTF2_Archive, ArchiveCloser> archive(
        OTF2_Archive_Open(path.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE));
    if (!archive) {
        result.error = fmt::format("could not create the OTF2 archive {}", request.path);
        return result;
    }
    OTF2_Archive_SetFlushCallbacks(archive.get(), &flush_callbacks, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive.get());
    OTF2_Archive_SetCreator(archive.get(), "ompp " OMPP_VERSION);
    OTF2_Archive_SetMachineName(archive.get(), "localhost");
    OTF2_Archive_OpenEvtFiles(archive.get());

    Regions regions;
    for (const model::Region& region : request.regions) regions.emplace(region.id, &region);
    const std::vector<std::uint32_t> threads = traced_threads();
    Locks locks(threads, regions);
    TeamOf team_of;
    for (std::size_t i = 0; i < threads.size(); ++i) team_of.emplace(threads[i], static_cast<OTF2_CommRef>(i));
    std::vector<std::uint64_t> events_per_location;
    for (const std::uint32_t thread : threads) {
        OTF2_EvtWriter* writer = OTF2_Archive_GetEvtWriter(archive.get(), thread);
        LocationWriter location(writer, thread, regions, team_of, locks, request.start);
        read_events(thread, [&](const TraceEvent& event) { location.write(event); });
        location.close_open_regions(request.end > request.start ? request.end - request.start : 0);
        events_per_location.push_back(location.events());
        result.events += location.events();
        result.records += location.records();
        OTF2_Archive_CloseEvtWriter(archive.get(), writer);
    }
    OTF2_Archive_CloseEvtFiles(archive.get());

    // Every location needs its (empty) local definitions for readers.
    OTF2_Archive_OpenDefFiles(archive.get());
    for (const std::uint32_t thread : threads) {
        OTF2_Archive_CloseDefWriter(archive.get(), OTF2_Archive_GetDefWriter(archive.get(), thread));
    }
    OTF2_Archive_CloseDefFiles(archive.get());

    Definitions defs(OTF2_Archive_GetGlobalDefWriter(archive.get()));
    const double resolution = request.seconds_per_tick > 0 ? 1.0 / request.seconds_per_tick : 1e9;
    OTF2_GlobalDefWriter_WriteClockProperties(defs.writer(), static_cast<std::uint64_t>(resolution + 0.5), 0,
                                              request.end > request.start ? request.end - request.start : 0,
                                              OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteParadigm(defs.writer(), OTF2_PARADIGM_OPENMP, defs.string("OpenMP"),
                                       OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
    write_regions(defs, request.regions);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(defs.writer(), 0, defs.string("localhost"), defs.string("machine"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteLocationGroup(defs.writer(), 0, defs.string(request.application),
                                            OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    std::vector<std::uint64_t> members;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        OTF2_GlobalDefWriter_WriteLocation(defs.writer(), threads[i],
                                           defs.string(fmt::format("OpenMP thread {}", threads[i])),
                                           OTF2_LOCATION_TYPE_CPU_THREAD, events_per_location[i], 0);
        members.push_back(threads[i]);
    }
    OTF2_GlobalDefWriter_WriteGroup(defs.writer(), 0, defs.string("OpenMP threads"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(members.size()), members.data());
    std::vector<std::uint64_t> ranks(members.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) ranks[i] = i;
    OTF2_GlobalDefWriter_WriteGroup(defs.writer(), 1, defs.string("OpenMP team"), OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(ranks.size()), ranks.data());
    for (std::size_t i = 0; i < threads.size(); ++i) {
        OTF2_GlobalDefWriter_WriteComm(defs.writer(), static_cast<OTF2_CommRef>(i),
                                       defs.string(fmt::format("OpenMP team of thread {}", threads[i])), 1,
                                       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    }
    OTF2_Archive_CloseGlobalDefWriter(archive.get(), defs.writer());
    if (OTF2_Archive_Close(archive.release()) != OTF2_SUCCESS) {
        result.error = fmt::format("could not complete the OTF2 archive {}", request.path);
    }
    return result;
}

}  // namespace ompp::trace
