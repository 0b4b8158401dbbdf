// launcher.hpp - the MPI rank and world size that an MPI launcher (mpirun,
// mpiexec, srun) gives a process in its environment, so that libompp knows
// its rank without depending on MPI (docs/mpi.md).  libompp_mpi's MPI_Init
// confirms or corrects it from MPI_Comm_rank/MPI_Comm_size.
#pragma once

#include <optional>

#include "config/options.hpp"

namespace ompp::config {

struct LaunchedRank {
    int rank = 0;
    int size = 1;
};

// The first launcher whose rank and size variables are both set and valid
// (0 <= rank < size): Open MPI (OMPI_COMM_WORLD_*), PMI (MPICH, Intel MPI:
// PMI_RANK/PMI_SIZE), PMIx (PMIX_RANK with OMPI_COMM_WORLD_SIZE or
// PMI_SIZE), Slurm (SLURM_PROCID/SLURM_NTASKS).  None: not launched as an
// MPI process.
std::optional<LaunchedRank> launched_rank(const Config::Lookup& lookup = {});

}  // namespace ompp::config
