#include "core/region_registry.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/ctc.hpp"
#include "model/names.hpp"

namespace ompp::core {
namespace {

// The length prefix differs when only the path spelling differs in length,
// so the key is the content after the first '*'.
std::string_view ctc_content(std::string_view ctc) {
    const auto star = ctc.find('*');
    return star == std::string_view::npos ? ctc : ctc.substr(star);
}

}  // namespace

RegionRegistry& RegionRegistry::instance() {
    // Leaked on purpose: handles keep pointing at records until the very end
    // of the process, after static destructors of other libraries.
    static auto* registry = new RegionRegistry();
    return *registry;
}

const RegionRecord& RegionRegistry::intern(std::string key, const model::Region& info, bool untied,
                                           bool barrier_at_join) {
    if (auto it = by_key_.find(key); it != by_key_.end()) return *it->second;
    RegionRecord& record = records_.emplace_back();
    record.info = info;
    record.info.id = static_cast<std::uint32_t>(records_.size());
    record.untied = untied;
    record.barrier_at_join = barrier_at_join;
    by_key_.emplace(std::move(key), &record);
    return record;
}

const RegionRecord& RegionRegistry::register_handle(void** handle, const char* ctc, model::RegionKind fallback) {
    std::lock_guard lock(mutex_);
    if (handle != nullptr) {
        // Another thread may have won the race while we waited for the lock.
        if (const auto* known = static_cast<const RegionRecord*>(__atomic_load_n(handle, __ATOMIC_ACQUIRE))) {
            return *known;
        }
    }
    const RegionRecord* record = nullptr;
    const std::optional<CtcInfo> parsed = ctc != nullptr ? parse_ctc(ctc) : std::nullopt;
    std::optional<model::RegionKind> kind = parsed ? region_kind_of(parsed->region_type) : std::nullopt;
    if (parsed && kind) {
        model::Region info;
        info.kind = *kind;
        info.name = parsed->name;
        info.function = parsed->function;
        info.directive = parsed->directive;
        info.block_end = parsed->block_end;
        info.timed = !parsed->counted_only;
        record = &intern(std::string(ctc_content(ctc)), info, parsed->untied || parsed->region_type == "taskuntied",
                         parsed->barrier_at_join);
    } else {
        if (ctc != nullptr) {
            problems_.push_back(parsed ? fmt::format("unknown regionType '{}' in CTC string \"{}\"",
                                                     parsed->region_type, ctc)
                                       : fmt::format("unparseable CTC string \"{}\"", ctc));
        }
        // One region per handle, so its events still nest and can be found.
        model::Region info;
        info.kind = fallback;
        info.name = fmt::format("unregistered {}", model::to_string(fallback));
        info.directive.file = "<unknown>";
        record = &intern(fmt::format("handle:{}", static_cast<const void*>(handle)), info, false);
    }
    if (handle != nullptr) __atomic_store_n(handle, const_cast<RegionRecord*>(record), __ATOMIC_RELEASE);
    return *record;
}

const RegionRecord* NameTable::find(std::string_view name) const {
    const Table* table = current_.load(std::memory_order_acquire);
    if (table == nullptr) return nullptr;
    for (std::size_t i = std::hash<std::string_view>{}(name) & table->mask;; i = (i + 1) & table->mask) {
        const RegionRecord* record = table->slots[i].load(std::memory_order_acquire);
        if (record == nullptr || *record->info.name == name) return record;
    }
}

void NameTable::place(const Table& table, const RegionRecord& record) {
    std::size_t i = std::hash<std::string_view>{}(*record.info.name) & table.mask;
    while (table.slots[i].load(std::memory_order_relaxed) != nullptr) i = (i + 1) & table.mask;
    table.slots[i].store(&record, std::memory_order_release);
}

void NameTable::insert(const RegionRecord& record) {
    const Table* current = current_.load(std::memory_order_relaxed);
    const std::size_t capacity = current != nullptr ? current->mask + 1 : 0;
    if (2 * (size_ + 1) > capacity) {
        // At most half full, so probes stay short and always end at a free slot.
        auto grown = std::make_unique<Table>();
        const std::size_t new_capacity = std::max<std::size_t>(64, 2 * capacity);
        grown->mask = new_capacity - 1;
        grown->slots = std::make_unique<std::atomic<const RegionRecord*>[]>(new_capacity);
        for (std::size_t i = 0; i < capacity; ++i) {
            if (const RegionRecord* old = current->slots[i].load(std::memory_order_relaxed)) place(*grown, *old);
        }
        current = tables_.emplace_back(std::move(grown)).get();
        current_.store(current, std::memory_order_release);
    }
    place(*current, record);
    ++size_;
}

const RegionRecord& RegionRegistry::register_user_region(std::string_view name, std::string_view file, int line) {
    std::lock_guard lock(mutex_);
    if (const RegionRecord* known = user_regions_.find(name)) return *known;
    model::Region info;
    info.kind = model::RegionKind::UserRegion;
    info.name = std::string(name);
    info.directive = {std::string(file), line, line};
    info.block_end = info.directive;
    const RegionRecord& record = intern(fmt::format("user:{}", name), info, false);
    user_regions_.insert(record);
    return record;
}

void RegionRegistry::bind_lock(const void* lock_address, const RegionRecord& site) {
    std::lock_guard lock(mutex_);
    lock_sites_[lock_address] = &site;
}

const RegionRecord& RegionRegistry::lock(const void* lock_address) {
    std::lock_guard lock(mutex_);
    if (auto site = lock_sites_.find(lock_address); site != lock_sites_.end()) return *site->second;
    model::Region info;
    info.kind = model::RegionKind::Lock;
    info.name = fmt::format("lock {}", lock_address);
    return intern(fmt::format("lock:{}", lock_address), info, false);
}

const RegionRecord& RegionRegistry::mpi_function(std::string_view function) {
    std::lock_guard lock(mutex_);
    model::Region info;
    info.kind = model::RegionKind::Mpi;
    info.name = std::string(function);
    info.directive.file = info.block_end.file = "MPI library";
    return intern(fmt::format("mpi:{}", function), info, false);
}

std::vector<model::Region> RegionRegistry::regions() const {
    std::lock_guard lock(mutex_);
    std::vector<model::Region> out;
    out.reserve(records_.size());
    for (const auto& record : records_) {
        model::Region& region = out.emplace_back(record.info);
        if (const int end = record.end_line.load(std::memory_order_relaxed); end > 0)
            region.block_end.first_line = region.block_end.last_line = end;
    }
    return out;
}

std::vector<std::string> RegionRegistry::problems() const {
    std::lock_guard lock(mutex_);
    return problems_;
}

}  // namespace ompp::core
