//===- MPICompiler.h - MPI compiler wrappers behind a command -------------===//
//
// Responsibilities: tell whether a command builds an MPI program (its
// compiler is an MPI wrapper such as mpicc, or its link line names the MPI
// library), and read the include flags an MPI wrapper adds out of what it
// shows (`mpicc -showme:compile`, Open MPI; `mpicc -show`, MPICH and Intel
// MPI), so that Clang parses `#include <mpi.h>` as the compiler does.
//
// What depends on it: the driver links libompp_mpi (the PMPI wrappers,
// docs/mpi.md) into MPI programs, before the MPI library, and adds the
// wrapper's include flags to Clang's parse.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_MPICOMPILER_H
#define OMPP_DRIVER_MPICOMPILER_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace ompp::driver {

class CompilerCommand;

/// mpicc, mpicxx, mpic++, mpiCC, mpigcc, mpiicc, mpiicpx, ... (by the file
/// name, any directory and version suffix: /usr/bin/mpicc.openmpi).
bool isMPICompilerName(llvm::StringRef Compiler);

/// The compiler is an MPI wrapper, or the command links an MPI library
/// (-lmpi, -lmpich, libmpi.so...).
bool buildsMPIProgram(const CompilerCommand &Command);

/// The -I, -isystem and -D flags in an MPI wrapper's shown command line,
/// include directories as -isystem (MPI's headers are not the program's to
/// warn about).
std::vector<std::string> mpiParseFlagsFromShow(llvm::StringRef Shown);

} // namespace ompp::driver

#endif // OMPP_DRIVER_MPICOMPILER_H
