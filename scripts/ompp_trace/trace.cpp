#include "trace.hpp"

#include <otf2/otf2.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <unordered_map>

namespace ompp::trace_tool {

const char* to_string(Kind kind) {
    static constexpr const char* names[kKinds] = {"Enter",       "Leave",       "ThreadFork",       "ThreadJoin",
                                                  "ThreadTeamBegin", "ThreadTeamEnd", "ThreadAcquireLock",
                                                  "ThreadReleaseLock", "ThreadTaskCreate", "ThreadTaskSwitch",
                                                  "ThreadTaskComplete"};
    return names[static_cast<int>(kind)];
}

namespace {

struct Reading {
    Trace trace;
    std::unordered_map<OTF2_StringRef, std::string> strings;
    struct PendingRegion {
        OTF2_RegionRef ref;
        OTF2_StringRef name;
        OTF2_StringRef file;
        std::uint32_t line;
        OTF2_RegionRole role;
    };
    std::vector<PendingRegion> regions;
    std::vector<OTF2_CommRef> comms;
    std::vector<OTF2_LocationRef> locations;  // in definition order
};

Reading& reading(void* data) { return *static_cast<Reading*>(data); }

OTF2_CallbackCode on_clock(void* data, std::uint64_t resolution, std::uint64_t, std::uint64_t length, std::uint64_t) {
    reading(data).trace.ticks_per_second = resolution;
    reading(data).trace.length = length;
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text) {
    reading(data).strings[self] = text;
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole role, OTF2_Paradigm, OTF2_RegionFlag, OTF2_StringRef file,
                            std::uint32_t line, std::uint32_t) {
    reading(data).regions.push_back({self, name, file, line, role});
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, std::uint64_t,
                              OTF2_LocationGroupRef) {
    reading(data).locations.push_back(self);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef, OTF2_CommRef,
                          OTF2_CommFlag) {
    reading(data).comms.push_back(self);
    return OTF2_CALLBACK_SUCCESS;
}

void add(void* data, OTF2_LocationRef location, OTF2_TimeStamp time, Kind kind, std::uint32_t region = 0,
         std::uint32_t a = 0, std::uint32_t b = 0) {
    reading(data).trace.threads[location].push_back({time, kind, region, a, b});
}
OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_RegionRef r) {
    add(d, l, t, Kind::Enter, r);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_RegionRef r) {
    add(d, l, t, Kind::Leave, r);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_fork(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_Paradigm,
                          std::uint32_t requested) {
    add(d, l, t, Kind::Fork, 0, requested);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_Paradigm) {
    add(d, l, t, Kind::Join);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_CommRef c) {
    add(d, l, t, Kind::TeamBegin, 0, c);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_team_end(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_CommRef c) {
    add(d, l, t, Kind::TeamEnd, 0, c);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_acquire(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_Paradigm,
                             std::uint32_t lock, std::uint32_t order) {
    add(d, l, t, Kind::AcquireLock, 0, lock, order);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_release(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_Paradigm,
                             std::uint32_t lock, std::uint32_t order) {
    add(d, l, t, Kind::ReleaseLock, 0, lock, order);
    return OTF2_CALLBACK_SUCCESS;
}
template <Kind kind>
OTF2_CallbackCode on_task(OTF2_LocationRef l, OTF2_TimeStamp t, void* d, OTF2_AttributeList*, OTF2_CommRef,
                          std::uint32_t creator, std::uint32_t generation) {
    add(d, l, t, kind, 0, creator, generation);
    return OTF2_CALLBACK_SUCCESS;
}

struct ReaderCloser {
    void operator()(OTF2_Reader* reader) const { OTF2_Reader_Close(reader); }
};

std::string anchor_of(const std::string& path) {
    const std::filesystem::path given(path);
    if (std::filesystem::is_directory(given)) return (given / "traces.otf2").string();
    return path;
}

void check(OTF2_ErrorCode status, const std::string& anchor, const char* what) {
    if (status != OTF2_SUCCESS) {
        throw std::runtime_error(anchor + ": " + what + ": " + OTF2_Error_GetDescription(status));
    }
}

}  // namespace

Trace read_trace(const std::string& path) {
    const std::string anchor = anchor_of(path);
    if (!std::filesystem::is_regular_file(anchor)) throw std::runtime_error(anchor + ": no such OTF2 anchor file");
    std::unique_ptr<OTF2_Reader, ReaderCloser> reader(OTF2_Reader_Open(anchor.c_str()));
    if (!reader) throw std::runtime_error(anchor + ": not an OTF2 archive");
    check(OTF2_Reader_SetSerialCollectiveCallbacks(reader.get()), anchor, "reader");
    Reading state;

    OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader.get());
    if (defs == nullptr) throw std::runtime_error(anchor + ": no global definitions");
    std::unique_ptr<OTF2_GlobalDefReaderCallbacks, decltype(&OTF2_GlobalDefReaderCallbacks_Delete)> def_callbacks(
        OTF2_GlobalDefReaderCallbacks_New(), &OTF2_GlobalDefReaderCallbacks_Delete);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(def_callbacks.get(), on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(def_callbacks.get(), on_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(def_callbacks.get(), on_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(def_callbacks.get(), on_location);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(def_callbacks.get(), on_comm);
    check(OTF2_Reader_RegisterGlobalDefCallbacks(reader.get(), defs, def_callbacks.get(), &state), anchor,
          "definitions");
    std::uint64_t read = 0;
    check(OTF2_Reader_ReadAllGlobalDefinitions(reader.get(), defs, &read), anchor, "definitions");
    OTF2_Reader_CloseGlobalDefReader(reader.get(), defs);

    for (const auto& region : state.regions) {
        if (region.ref >= state.trace.regions.size()) state.trace.regions.resize(region.ref + 1);
        state.trace.regions[region.ref] = {state.strings[region.name], state.strings[region.file], region.line,
                                           region.role};
    }
    // libompp defines one team comm per location, in the same order: the
    // team of the i-th location is comm i.
    for (const OTF2_CommRef comm : state.comms) {
        if (comm < state.locations.size()) state.trace.team_master[comm] = state.locations[comm];
    }

    for (const OTF2_LocationRef location : state.locations) {
        OTF2_Reader_SelectLocation(reader.get(), location);
        state.trace.threads[location];
    }
    const bool with_defs = OTF2_Reader_OpenDefFiles(reader.get()) == OTF2_SUCCESS;
    check(OTF2_Reader_OpenEvtFiles(reader.get()), anchor, "event files");
    for (const OTF2_LocationRef location : state.locations) {
        if (with_defs) {
            if (OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader.get(), location)) {
                std::uint64_t ignored = 0;
                OTF2_Reader_ReadAllLocalDefinitions(reader.get(), local, &ignored);
                OTF2_Reader_CloseDefReader(reader.get(), local);
            }
        }
        OTF2_Reader_GetEvtReader(reader.get(), location);
    }
    if (with_defs) OTF2_Reader_CloseDefFiles(reader.get());

    OTF2_GlobalEvtReader* events = OTF2_Reader_GetGlobalEvtReader(reader.get());
    std::unique_ptr<OTF2_GlobalEvtReaderCallbacks, decltype(&OTF2_GlobalEvtReaderCallbacks_Delete)> callbacks(
        OTF2_GlobalEvtReaderCallbacks_New(), &OTF2_GlobalEvtReaderCallbacks_Delete);
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(callbacks.get(), on_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(callbacks.get(), on_leave);
    OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(callbacks.get(), on_fork);
    OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(callbacks.get(), on_join);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(callbacks.get(), on_team_begin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(callbacks.get(), on_team_end);
    OTF2_GlobalEvtReaderCallbacks_SetThreadAcquireLockCallback(callbacks.get(), on_acquire);
    OTF2_GlobalEvtReaderCallbacks_SetThreadReleaseLockCallback(callbacks.get(), on_release);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCreateCallback(callbacks.get(), on_task<Kind::TaskCreate>);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskSwitchCallback(callbacks.get(), on_task<Kind::TaskSwitch>);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCompleteCallback(callbacks.get(), on_task<Kind::TaskComplete>);
    check(OTF2_Reader_RegisterGlobalEvtCallbacks(reader.get(), events, callbacks.get(), &state), anchor, "events");
    check(OTF2_Reader_ReadAllGlobalEvents(reader.get(), events, &read), anchor, "events");
    OTF2_Reader_CloseGlobalEvtReader(reader.get(), events);
    OTF2_Reader_CloseEvtFiles(reader.get());
    return std::move(state.trace);
}

}  // namespace ompp::trace_tool

namespace ompp::trace_tool {

std::string ThreadWalk::step(const Event& event, const Trace& trace) {
    const auto name = [&](std::uint32_t region) {
        return region < trace.regions.size() ? trace.regions[region].name : std::to_string(region);
    };
    const auto here = [&] { return "thread " + std::to_string(location_) + " at " + std::to_string(event.time); };
    switch (event.kind) {
    case Kind::Enter: stacks_[current_].push_back({event.region, event.time}); break;
    case Kind::Leave: {
        auto& stack = stacks_[current_];
        if (stack.empty()) return here() + ": Leave of " + name(event.region) + " with no region open";
        if (stack.back().region != event.region) {
            return here() + ": Leave of " + name(event.region) + " while " + name(stack.back().region) + " is open";
        }
        left_ = stack.back();
        stack.pop_back();
        break;
    }
    case Kind::TaskSwitch:
        if (!suspended_.empty() && suspended_.back() == event.task()) {
            suspended_.pop_back();
        } else if (!current_completed_) {
            suspended_.push_back(current_);
        }
        current_ = event.task();
        current_completed_ = false;
        stacks_[current_];
        break;
    case Kind::TaskComplete: {
        const auto it = stacks_.find(event.task());
        if (it != stacks_.end() && !it->second.empty()) {
            return here() + ": task " + std::to_string(event.a) + "." + std::to_string(event.b) +
                   " completes with " + name(it->second.back().region) + " open";
        }
        if (it != stacks_.end() && event.b != 0) stacks_.erase(it);
        if (event.task() == current_) current_completed_ = true;
        break;
    }
    default: break;
    }
    return {};
}

const std::vector<ThreadWalk::Open>& ThreadWalk::stack() const {
    static const std::vector<Open> none;
    const TaskKey where = current_completed_ && !suspended_.empty() ? suspended_.back() : current_;
    const auto it = stacks_.find(where);
    return it != stacks_.end() ? it->second : none;
}

std::size_t ThreadWalk::open_regions() const {
    std::size_t open = 0;
    for (const auto& [task, stack] : stacks_) open += stack.size();
    return open;
}

}  // namespace ompp::trace_tool
