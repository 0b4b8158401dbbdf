//===- TempDirectory.h - Private scratch space and atomic file writes -----===//
//
// Instrumented sources never go next to the user's files.  They go to a
// directory only the user can read (mode 0700) under $TMPDIR, which is
// removed with everything in it when the TempDirectory goes away, unless the
// user asked to keep it.  Every file is written under a temporary name and
// renamed into place, so a reader never sees half a file.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_TEMPDIRECTORY_H
#define OMPP_DRIVER_TEMPDIRECTORY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ompp::driver {

class TempDirectory {
public:
  static llvm::Expected<TempDirectory> create(llvm::StringRef Prefix);
  TempDirectory(TempDirectory &&Other) noexcept;
  TempDirectory &operator=(TempDirectory &&) = delete;
  TempDirectory(const TempDirectory &) = delete;
  ~TempDirectory();

  const std::string &path() const { return Path; }
  /// Leaves the directory on disk when this object is destroyed.
  void keep() { Keep = true; }
  /// Creates (if needed) and returns the subdirectory \p Name.
  llvm::Expected<std::string> subdirectory(llvm::StringRef Name) const;

private:
  explicit TempDirectory(std::string Path) : Path(std::move(Path)) {}
  std::string Path;
  bool Keep = false;
};

/// Writes \p Contents to \p Path atomically: to a unique sibling first, then
/// renamed over \p Path.  On failure nothing is left behind.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace ompp::driver

#endif // OMPP_DRIVER_TEMPDIRECTORY_H
