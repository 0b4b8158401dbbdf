//===- CompilerIdentity.h - Which compiler is behind a command ------------===//
//
// Responsibilities: tell Clang from GCC (and from anything else) and find the
// OpenMP version the compiler implements, by the macros it predefines
// (`<compiler> -fopenmp -dM -E` of an empty file: __clang__, __GNUC__,
// _OPENMP).  The name is not enough: `cc` is either, and build systems
// install compilers under any name.
//
// What depends on it: Clang 16 parses every source; for another compiler the
// parse sees the _OPENMP value that compiler defines (with the newest OpenMP
// syntax Clang knows), and --verbose names the compiler.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_COMPILERIDENTITY_H
#define OMPP_DRIVER_COMPILERIDENTITY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace ompp::driver {

struct CompilerIdentity {
  enum class Family { Clang, GCC, Other };
  Family Kind = Family::Other;
  std::string Version;    ///< __VERSION__, e.g. "12.2.0" (may be empty)
  std::string OpenMPDate; ///< _OPENMP under -fopenmp, e.g. "201511" (empty: no OpenMP)

  bool isClang() const { return Kind == Family::Clang; }
  /// "clang", "gcc" or "an unknown compiler", for messages.
  llvm::StringRef familyName() const;
};

/// Reads the identity from the output of `<compiler> -fopenmp -dM -E`.
CompilerIdentity identityFromMacros(llvm::StringRef Macros);

} // namespace ompp::driver

#endif // OMPP_DRIVER_COMPILERIDENTITY_H
