// ompp's MPI entry points (pomp2_ompp.h), called by libompp_mpi's PMPI
// wrappers: an MPI call is a region entered and left like a user region,
// on the calling thread's current call path.
#include <pomp2/pomp2_ompp.h>

#include "adapter/lifecycle.hpp"
#include "core/region_registry.hpp"

#define OMPP_API __attribute__((visibility("default")))

namespace {

using ompp::core::RegionRecord;
using K = ompp::model::RegionKind;

// The handle keeps the function's region: one registry lookup per wrapper.
const RegionRecord& mpi_region(POMP2_Region_handle* handle, const char* function) {
    if (const auto* known = static_cast<const RegionRecord*>(__atomic_load_n(handle, __ATOMIC_ACQUIRE))) [[likely]]
        return *known;
    const RegionRecord& region =
        ompp::core::RegionRegistry::instance().mpi_function(function != nullptr ? function : "MPI");
    __atomic_store_n(handle, const_cast<RegionRecord*>(&region), __ATOMIC_RELEASE);
    return region;
}

}  // namespace

extern "C" {

OMPP_API void POMP2_MPI_Begin(POMP2_Region_handle* handle, const char* function) {
    ompp::core::Measurement* m = ompp::adapter::gate();
    if (m == nullptr || handle == nullptr || !ompp::adapter::measured(K::Mpi)) [[unlikely]] return;
    m->this_thread().enter(mpi_region(handle, function), m->now());
}

OMPP_API void POMP2_MPI_End(POMP2_Region_handle* handle, unsigned long long bytes) {
    ompp::core::Measurement* m = ompp::adapter::gate();
    if (m == nullptr || handle == nullptr || !ompp::adapter::measured(K::Mpi)) [[unlikely]] return;
    const auto* region = static_cast<const RegionRecord*>(__atomic_load_n(handle, __ATOMIC_ACQUIRE));
    if (region == nullptr) [[unlikely]] return;  // begun before measurement started
    m->this_thread().exit_moving_bytes(*region, m->now(), bytes);
}

OMPP_API void POMP2_MPI_Process(int rank, int size) { ompp::adapter::set_mpi_process(rank, size); }

}  // extern "C"
