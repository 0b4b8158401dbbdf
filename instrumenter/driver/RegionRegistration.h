//===- RegionRegistration.h - OPARI2's link-time region registration ------===//
//
// Responsibilities: the init step OPARI2 documents for its objects
// (`nm -B objs | pomp2-parse-init-regions.awk > init.c`), done by the link
// step of `--opari2-compatible` builds so that POMP2 libraries which register
// regions eagerly (OPARI2's libpomp, libompp) work without a manual step.
//
// Every --opari2-compatible translation unit defines
// `POMP2_Init_reg_<unit id>_<regions>()` (and `POMP2_USER_Init_reg_...` for
// user regions).  The generated C file defines POMP2_Init_regions(), which
// calls them all, POMP2_Get_num_regions(), which returns the sum of the
// <regions> suffixes, and the same pair for user regions - exactly what the
// awk script of OPARI2 2.0.7 generates.  Nothing is generated when an input
// already defines POMP2_Init_regions (the user ran OPARI2's step himself).
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_REGIONREGISTRATION_H
#define OMPP_DRIVER_REGIONREGISTRATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ompp::driver {

struct RegionInitializers {
  std::vector<std::string> Functions;     ///< POMP2_Init_reg_<id>_<n>
  std::vector<std::string> UserFunctions; ///< POMP2_USER_Init_reg_<id>_<n>
  size_t Regions = 0;
  size_t UserRegions = 0;
  bool AlreadyProvided = false; ///< some input defines POMP2_Init_regions
};

/// Reads `nm -B` output (several files' worth).
RegionInitializers parseNmOutput(llvm::StringRef NmOutput);

/// The C source of the init file for \p Found.
std::string regionInitSource(const RegionInitializers &Found);

/// Runs `nm -B` on \p Files (objects and archives) and parses its output.
llvm::Expected<RegionInitializers> findRegionInitializers(llvm::ArrayRef<std::string> Files,
                                                          llvm::StringRef ScratchDir);

} // namespace ompp::driver

#endif // OMPP_DRIVER_REGIONREGISTRATION_H
