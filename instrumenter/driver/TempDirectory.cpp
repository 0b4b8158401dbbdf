//===- TempDirectory.cpp - Private scratch space and atomic file writes ---===//

#include "TempDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

namespace ompp::driver {

namespace fs = llvm::sys::fs;

/// `rm -rf -- <directory>`, prepared before any signal can need it.
struct TempDirectory::RemovalCommand {
  explicit RemovalCommand(const std::string &Directory) : Path(Directory) {}
  std::string Path;
  std::array<char *, 5> Argv{const_cast<char *>("rm"), const_cast<char *>("-rf"),
                             const_cast<char *>("--"), Path.data(), nullptr};
};

namespace {

// A termination signal (Ctrl-C, a build's time limit, a batch system's kill)
// must not leave the instrumented sources behind.  A handler may only make
// async-signal-safe calls, so it runs the prepared `rm` through fork/execve,
// then dies of the signal as the process would have without ompp.  The
// compiler running at that moment is not waited for: it gets the terminal's
// signal itself, or fails on its vanished input.
std::atomic<TempDirectory::RemovalCommand *> RemoveOnSignal{nullptr};
constexpr std::array<int, 3> TerminationSignals{SIGINT, SIGTERM, SIGHUP};

extern "C" void removeTempDirectoryAndDie(int Signal) {
  if (TempDirectory::RemovalCommand *Command = RemoveOnSignal.exchange(nullptr)) {
    pid_t Child = fork();
    if (Child == 0) {
      char *NoEnvironment[] = {nullptr};
      execve("/bin/rm", Command->Argv.data(), NoEnvironment);
      _exit(127);
    }
    int Status;
    while (Child > 0 && waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
    }
  }
  // The signal is blocked while its handler runs: it is delivered, with its
  // default action, as soon as the handler returns.
  signal(Signal, SIG_DFL);
  raise(Signal);
}

void installTerminationHandlers() {
  struct sigaction Action = {};
  Action.sa_handler = removeTempDirectoryAndDie;
  sigemptyset(&Action.sa_mask);
  for (int Signal : TerminationSignals)
    sigaddset(&Action.sa_mask, Signal);
  for (int Signal : TerminationSignals) {
    struct sigaction Previous = {};
    sigaction(Signal, nullptr, &Previous);
    // A build that ignores a signal (nohup) keeps ignoring it.
    if (Previous.sa_handler != SIG_IGN)
      sigaction(Signal, &Action, nullptr);
  }
}

} // namespace

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

TempDirectory::TempDirectory(std::string Directory)
    : Path(std::move(Directory)), Removal(std::make_unique<RemovalCommand>(Path)) {
  installTerminationHandlers();
  [[maybe_unused]] RemovalCommand *Previous = RemoveOnSignal.exchange(Removal.get());
  assert(!Previous && "one temporary directory at a time");
}

TempDirectory::TempDirectory(TempDirectory &&Other) noexcept
    : Path(std::move(Other.Path)), Keep(Other.Keep), Removal(std::move(Other.Removal)) {
  Other.Path.clear();
}

TempDirectory::~TempDirectory() {
  if (Path.empty())
    return;
  if (!Keep)
    fs::remove_directories(Path, /*IgnoreErrors=*/true);
  forgetOnSignal();
}

void TempDirectory::keep() {
  Keep = true;
  forgetOnSignal();
}

void TempDirectory::forgetOnSignal() {
  RemovalCommand *Ours = Removal.get();
  RemoveOnSignal.compare_exchange_strong(Ours, nullptr);
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
