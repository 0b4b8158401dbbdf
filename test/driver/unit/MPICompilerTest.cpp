// Unit tests of telling MPI programs' commands apart and reading an MPI
// wrapper's include flags (docs/mpi.md).
#include "MPICompiler.h"

#include "CompilerCommand.h"

#include <catch2/catch.hpp>

using namespace ompp::driver;

namespace {

bool buildsMPI(std::vector<std::string> Argv) {
  auto Command = CompilerCommand::parse(Argv);
  REQUIRE(static_cast<bool>(Command));
  return buildsMPIProgram(*Command);
}

} // namespace

TEST_CASE("MPI compiler wrappers by name, any directory or version suffix", "[mpi]") {
  for (const char *Name : {"mpicc", "mpicxx", "mpic++", "mpiCC", "/usr/bin/mpicc.openmpi", "mpicxx.mpich",
                           "mpiicc", "mpiicpx", "/opt/mpi/bin/mpigcc"})
    CHECK(isMPICompilerName(Name));
  for (const char *Name : {"cc", "gcc", "clang-16", "mpirun", "mpiexec", "ompp-cc", "/usr/lib/mpi/cc", "mpi"})
    CHECK_FALSE(isMPICompilerName(Name));
}

TEST_CASE("a command builds an MPI program by its compiler or by linking the MPI library", "[mpi]") {
  CHECK(buildsMPI({"mpicc", "-fopenmp", "a.c", "-o", "a"}));
  CHECK(buildsMPI({"gcc", "-fopenmp", "a.o", "-L/usr/lib/openmpi/lib", "-lmpi", "-o", "a"}));
  CHECK(buildsMPI({"clang-16", "a.o", "/usr/lib/x86_64-linux-gnu/libmpich.so.12"}));
  CHECK_FALSE(buildsMPI({"gcc", "-fopenmp", "a.c", "-lm", "-o", "a"}));
  CHECK_FALSE(buildsMPI({"gcc", "-fopenmp", "mpi_solver.c", "-o", "mpi"}));
}

TEST_CASE("include flags from what Open MPI and MPICH wrappers show", "[mpi]") {
  // mpicc -showme:compile (Open MPI)
  CHECK(mpiParseFlagsFromShow("-I/usr/lib/x86_64-linux-gnu/openmpi/include "
                              "-I/usr/lib/x86_64-linux-gnu/openmpi/include/openmpi\n") ==
        std::vector<std::string>{"-isystem", "/usr/lib/x86_64-linux-gnu/openmpi/include", "-isystem",
                                 "/usr/lib/x86_64-linux-gnu/openmpi/include/openmpi"});
  // mpicc -show (MPICH): the whole command line
  CHECK(mpiParseFlagsFromShow("gcc -Wl,-z,relro -I /usr/include/x86_64-linux-gnu/mpich -DMPICH_SKIP "
                              "-L/usr/lib/x86_64-linux-gnu -lmpich") ==
        std::vector<std::string>{"-isystem", "/usr/include/x86_64-linux-gnu/mpich", "-DMPICH_SKIP"});
  CHECK(mpiParseFlagsFromShow("").empty());
}
