//===- main.cpp - ompp-instrument, ompp-cc, ompp-c++ ----------------------===//

#include "Tool.h"

#include "llvm/Support/InitLLVM.h"

namespace {
// Any address inside the executable lets the prefix lookup fall back to
// dladdr when /proc/self/exe is unavailable.
int ExecutableAnchor;
} // namespace

int main(int Argc, const char **Argv) {
  llvm::InitLLVM StackTraces(Argc, Argv);
  return ompp::driver::runTool(Argc, Argv, &ExecutableAnchor);
}
