//===- TempDirectory.h - Private scratch space and atomic file writes -----===//
//
// Instrumented sources never go next to the user's files.  They go to a
// directory only the user can read (mode 0700) under $TMPDIR, which is
// removed with everything in it when the TempDirectory goes away, or when
// SIGINT, SIGTERM or SIGHUP ends the process, unless the user asked to keep
// it.  Every file is written under a temporary name and
// renamed into place, so a reader never sees half a file.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_TEMPDIRECTORY_H
#define OMPP_DRIVER_TEMPDIRECTORY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
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
  void keep();
  /// Creates (if needed) and returns the subdirectory \p Name.
  llvm::Expected<std::string> subdirectory(llvm::StringRef Name) const;

  struct RemovalCommand;

private:
  explicit TempDirectory(std::string Directory);
  void forgetOnSignal();
  std::string Path;
  bool Keep = false;
  std::unique_ptr<RemovalCommand> Removal;
};

/// Writes \p Contents to \p Path atomically: to a unique sibling first, then
/// renamed over \p Path.  On failure nothing is left behind.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace ompp::driver

#endif // OMPP_DRIVER_TEMPDIRECTORY_H
