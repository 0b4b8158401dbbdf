//===- TempDirectory.cpp - Private scratch space and atomic file writes ---===//

#include "TempDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace ompp::driver {

namespace fs = llvm::sys::fs;

llvm::Expected<TempDirectory> TempDirectory::create(llvm::StringRef Prefix) {
  llvm::SmallString<256> Path;
  if (std::error_code EC = fs::createUniqueDirectory(Prefix, Path))
    return llvm::createStringError(EC, fmt::format("cannot create a temporary directory: {}",
                                                   EC.message()));
  if (std::error_code EC = fs::setPermissions(Path, fs::owner_all)) {
    fs::remove_directories(Path);
    return llvm::createStringError(EC, fmt::format("cannot make {} private: {}", Path.str().str(),
                                                   EC.message()));
  }
  return TempDirectory(Path.str().str());
}

TempDirectory::TempDirectory(TempDirectory &&Other) noexcept
    : Path(std::move(Other.Path)), Keep(Other.Keep) {
  Other.Path.clear();
}

TempDirectory::~TempDirectory() {
  if (!Path.empty() && !Keep)
    fs::remove_directories(Path, /*IgnoreErrors=*/true);
}

llvm::Expected<std::string> TempDirectory::subdirectory(llvm::StringRef Name) const {
  llvm::SmallString<256> Sub(Path);
  llvm::sys::path::append(Sub, Name);
  if (std::error_code EC = fs::create_directories(Sub, /*IgnoreExisting=*/true, fs::owner_all))
    return llvm::createStringError(EC, fmt::format("cannot create {}: {}", Sub.str().str(),
                                                   EC.message()));
  return Sub.str().str();
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%%%";
  int FD = -1;
  llvm::SmallString<256> TempPath;
  if (std::error_code EC = fs::createUniqueFile(Model, FD, TempPath))
    return llvm::createStringError(EC, fmt::format("cannot write {}: {}", Path.str(), EC.message()));
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Contents;
    Out.close();
    if (Out.has_error()) {
      std::error_code EC = Out.error();
      Out.clear_error();
      fs::remove(TempPath);
      return llvm::createStringError(EC, fmt::format("cannot write {}: {}", Path.str(),
                                                     EC.message()));
    }
  }
  if (std::error_code EC = fs::rename(TempPath, Path)) {
    fs::remove(TempPath);
    return llvm::createStringError(EC, fmt::format("cannot write {}: {}", Path.str(), EC.message()));
  }
  return llvm::Error::success();
}

} // namespace ompp::driver
