//===- Tool.h - ompp-instrument's own command line ------------------------===//
//
// Responsibilities: the three faces of one executable and their options.
//
//   ompp-instrument [options] -- <compiler> <compiler args...>
//   ompp-instrument [options] -p <build dir> <source>...   (compile_commands.json)
//   ompp-cc  [--ompp-<option>...] [--compiler=<cc>]  <compiler args...>
//   ompp-c++ [--ompp-<option>...] [--compiler=<c++>] <compiler args...>
//
// The wrappers (symlinks to ompp-instrument, told apart by their name) take
// every argument as the compiler's, except --compiler=<path> and options
// spelled --ompp-<option>, which are ompp-instrument's --<option>; so a
// wrapper answers `--version` or `-v` exactly like the compiler it wraps.
// Options may also come from the environment variable OMPP_INSTRUMENT_OPTIONS.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_DRIVER_TOOL_H
#define OMPP_DRIVER_TOOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace ompp::driver {

enum class ToolFlavor { Instrument, CWrapper, CXXWrapper };

/// Which face argv[0] asks for: ompp-cc*, ompp-c++* / ompp-cxx*, else the tool.
ToolFlavor flavorOf(llvm::StringRef Argv0);

/// argv split into ompp-instrument's own arguments (Tool[0] = program name)
/// and the compiler command (empty if there was none).
struct SplitArguments {
  std::vector<std::string> Tool;
  std::vector<std::string> Compiler;
  bool HasSeparator = false; ///< `--` was given (ompp-instrument)
};
SplitArguments splitArguments(ToolFlavor Flavor, llvm::ArrayRef<const char *> Argv);

/// The whole program; returns its exit status.
int runTool(int Argc, const char **Argv, void *MainAddress);

} // namespace ompp::driver

#endif // OMPP_DRIVER_TOOL_H
