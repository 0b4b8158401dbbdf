//===- main.cpp - ompp-instrument, ompp-cc, ompp-c++ ----------------------===//

#include "Tool.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>

namespace {
// Any address inside the executable lets the prefix lookup fall back to
// dladdr when /proc/self/exe is unavailable.
int ExecutableAnchor;

void ignoreBrokenPipe(int) {}
} // namespace

int main(int Argc, const char **Argv) {
  llvm::InitLLVM StackTraces(Argc, Argv);
  // A build that closes its end of our stderr pipe must not kill us between
  // two commands (LLVM's handler exits with status 74): the write fails, the
  // build goes on to its end and the temporary directory is removed.  A
  // handler, not SIG_IGN, so the compilers we run get the default action.
  struct sigaction BrokenPipe = {};
  BrokenPipe.sa_handler = ignoreBrokenPipe;
  sigaction(SIGPIPE, &BrokenPipe, nullptr);
  int Status = ompp::driver::runTool(Argc, Argv, &ExecutableAnchor);
  // Lost diagnostics are not a failure of the build (the status says what
  // the compilers said); LLVM would turn them into a fatal error at exit.
  llvm::errs().clear_error();
  return Status;
}
