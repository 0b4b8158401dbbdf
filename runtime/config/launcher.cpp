#include "config/launcher.hpp"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace ompp::config {
namespace {

std::optional<int> non_negative(const char* text) {
    if (text == nullptr) return std::nullopt;
    const std::string_view digits(text);
    int value = -1;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc{} || end != digits.data() + digits.size() || value < 0) return std::nullopt;
    return value;
}

}  // namespace

std::optional<LaunchedRank> launched_rank(const Config::Lookup& lookup) {
    const Config::Lookup get = lookup ? lookup : [](const char* name) { return std::getenv(name); };
    struct Pair {
        const char* rank;
        const char* size;
    };
    // Most specific first: under srun --mpi=pmix both PMIX_RANK and
    // SLURM_PROCID are set and agree; under mpirun inside a Slurm job only
    // the launcher's own variables describe this MPI job.
    constexpr Pair kLaunchers[] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                   {"PMIX_RANK", "OMPI_COMM_WORLD_SIZE"},
                                   {"PMI_RANK", "PMI_SIZE"},
                                   {"PMIX_RANK", "PMI_SIZE"},
                                   {"SLURM_PROCID", "SLURM_NTASKS"}};
    for (const Pair& launcher : kLaunchers) {
        const auto rank = non_negative(get(launcher.rank));
        const auto size = non_negative(get(launcher.size));
        if (rank && size && *rank < *size) return LaunchedRank{*rank, *size};
    }
    return std::nullopt;
}

}  // namespace ompp::config
