//===- InstallPrefix.cpp - Where ompp's headers and runtime live ----------===//

#include "InstallPrefix.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace ompp::driver {

InstallPrefix InstallPrefix::fromRoot(std::string Root) {
  InstallPrefix Prefix;
  Prefix.Root = std::move(Root);
  llvm::SmallString<256> Path(Prefix.Root);
  llvm::sys::path::append(Path, "include");
  Prefix.IncludeDir = Path.str().str();
  Path = Prefix.Root;
  llvm::sys::path::append(Path, "lib");
  Prefix.LibraryDir = Path.str().str();
  llvm::sys::path::append(Path, "libompp.so");
  Prefix.RuntimeLibrary = Path.str().str();
  return Prefix;
}

InstallPrefix InstallPrefix::ofExecutable(const char *Argv0, void *MainAddress) {
  // getMainExecutable resolves symlinks, so ompp-cc -> ompp-instrument and a
  // symlink to the tool from elsewhere both lead to the real prefix.
  std::string Executable = llvm::sys::fs::getMainExecutable(Argv0, MainAddress);
  llvm::StringRef BinDir = llvm::sys::path::parent_path(Executable);
  return fromRoot(llvm::sys::path::parent_path(BinDir).str());
}

} // namespace ompp::driver
