// region_registry.hpp - every instrumented construct the process has seen,
// one record per source construct.
//
// Handles are registered eagerly (POMP2_Assign_handle, possibly from static
// constructors that run before the runtime is initialised, hence the
// self-initialising singleton) or lazily from the CTC string of a first event,
// possibly by two threads at once: handle slots are only touched with
// acquire/release atomics, and regions are interned by CTC content so that a
// construct registered from several translation units is one region.
// Records live as long as the process and never change once published.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/profile.hpp"

namespace ompp::core {

// Aligned to 16 bytes, so that a node's hit cache keeps a child's kind and
// whether it has a fork origin in its region address's low bits
// (ThreadState::child_key).
struct alignas(16) RegionRecord {
    model::Region info;
    bool untied = false;
    bool barrier_at_join = false;  // CtcInfo::barrier_at_join
    // User regions named at run time: the line of their first end in the
    // begin's file (POMP2_USER_End_named), set once; 0 until then.
    mutable std::atomic<int> end_line{0};

    void note_end(std::string_view file, int line) const {
        int unknown = 0;
        if (line > 0 && end_line.load(std::memory_order_relaxed) == 0 && file == info.directive.file)
            end_line.compare_exchange_strong(unknown, line, std::memory_order_relaxed);
    }
};

// Name -> user region, read without locks: slots are only ever filled
// (release), and a fuller table replaces the current one whole (the old ones
// stay: readers may still be probing them).  Writers hold the registry lock.
class NameTable {
public:
    const RegionRecord* find(std::string_view name) const;
    void insert(const RegionRecord& record);  // its info.name is the key

private:
    struct Table {
        std::size_t mask = 0;
        std::unique_ptr<std::atomic<const RegionRecord*>[]> slots;
    };
    void place(const Table& table, const RegionRecord& record);
    std::atomic<const Table*> current_{nullptr};
    std::vector<std::unique_ptr<Table>> tables_;
    std::size_t size_ = 0;
};

class RegionRegistry {
public:
    static RegionRegistry& instance();

    // The region a handle stands for, registering it from `ctc` (or, without
    // one, as an unknown construct of `fallback` kind) on first use.
    static const RegionRecord& resolve(void** handle, const char* ctc, model::RegionKind fallback) {
        if (handle != nullptr) {
            if (const RegionRecord* region = known(*handle)) [[likely]] return *region;
        }
        return instance().register_handle(handle, ctc, fallback);
    }
    // The region of a handle, if it has one yet: no call.
    static const RegionRecord* known(void*& handle) {
        return static_cast<const RegionRecord*>(__atomic_load_n(&handle, __ATOMIC_ACQUIRE));
    }
    const RegionRecord& register_handle(void** handle, const char* ctc, model::RegionKind fallback);

    // Regions without a CTC string: user regions named at run time (one per
    // name; the first begin gives its location) and locks (one per lock
    // object).  A known name is found without a lock.
    const RegionRecord& user_region(std::string_view name, std::string_view file, int line) {
        if (const RegionRecord* known = user_regions_.find(name)) [[likely]] return *known;
        return register_user_region(name, file, line);
    }
    const RegionRecord& lock(const void* lock_address);
    // The MPI region of one MPI function (libompp_mpi's wrappers): one per
    // function name, wherever it is called; its call paths tell the callers.
    const RegionRecord& mpi_function(std::string_view function);
    // The lock at this address was initialised at `site` (a LOCK region
    // from POMP2_Lock_init_site): lock() gives that region from now on.
    void bind_lock(const void* lock_address, const RegionRecord& site);

    std::vector<model::Region> regions() const;
    // Problems met while registering (unparseable CTC strings), for the profile.
    std::vector<std::string> problems() const;

private:
    RegionRegistry() = default;
    const RegionRecord& intern(std::string key, const model::Region& info, bool untied,
                               bool barrier_at_join = false);
    const RegionRecord& register_user_region(std::string_view name, std::string_view file, int line);

    mutable std::mutex mutex_;
    std::deque<RegionRecord> records_;  // stable addresses
    std::unordered_map<std::string, const RegionRecord*> by_key_;
    std::unordered_map<const void*, const RegionRecord*> lock_sites_;
    std::vector<std::string> problems_;
    NameTable user_regions_;
};

}  // namespace ompp::core
