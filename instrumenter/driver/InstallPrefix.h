//===- InstallPrefix.h - Where ompp's headers and runtime live ------------===//
//
// ompp-instrument finds everything it adds to a compile or link relative to
// its own executable: <prefix>/bin/ompp-instrument implies
// <prefix>/include (the POMP2 headers) and <prefix>/lib (libompp).  The build
// tree has the same layout, so the tools work from the build tree, from an
// install prefix, and from a copy of either moved anywhere.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_INSTALLPREFIX_H
#define OMPP_DRIVER_INSTALLPREFIX_H

#include <string>

namespace ompp::driver {

struct InstallPrefix {
  std::string Root;        ///< the directory above bin/
  std::string IncludeDir;  ///< Root/include
  std::string LibraryDir;  ///< Root/lib
  std::string RuntimeLibrary; ///< LibraryDir/libompp.so

  /// The prefix of the running executable.  \p Argv0 and \p MainAddress are
  /// what llvm::sys::fs::getMainExecutable needs as a fallback when
  /// /proc/self/exe is unavailable.
  static InstallPrefix ofExecutable(const char *Argv0, void *MainAddress);
  static InstallPrefix fromRoot(std::string Root);
};

} // namespace ompp::driver

#endif // OMPP_DRIVER_INSTALLPREFIX_H
