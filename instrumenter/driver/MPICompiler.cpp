#include "MPICompiler.h"

#include "CompilerCommand.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"

namespace ompp::driver {

bool isMPICompilerName(llvm::StringRef Compiler) {
  llvm::StringRef Name = llvm::sys::path::filename(Compiler);
  Name = Name.take_until([](char C) { return C == '.' || C == '-'; }); // mpicc.openmpi, mpicc-4.1
  if (!Name.consume_front("mpi"))
    return false;
  for (llvm::StringRef Compiled : {"cc", "cxx", "c++", "CC", "gcc", "g++", "gxx", "icc", "icpc", "icx", "icpx",
                                   "clang", "clang++", "nvc", "nvc++"})
    if (Name == Compiled)
      return true;
  return false;
}

bool buildsMPIProgram(const CompilerCommand &Command) {
  if (isMPICompilerName(Command.compiler()))
    return true;
  for (const CommandArg &Arg : Command.args())
    for (llvm::StringRef Word : Arg.Words) {
      llvm::StringRef File = llvm::sys::path::filename(Word);
      if (Word == "-lmpi" || Word == "-lmpich" || File.starts_with("libmpi.") || File.starts_with("libmpich."))
        return true;
    }
  return false;
}

std::vector<std::string> mpiParseFlagsFromShow(llvm::StringRef Shown) {
  llvm::SmallVector<llvm::StringRef> Words;
  llvm::SplitString(Shown, Words, " \t\r\n");
  std::vector<std::string> Flags;
  for (size_t I = 0; I < Words.size(); ++I) {
    llvm::StringRef Word = Words[I];
    const bool Separate = (Word == "-I" || Word == "-isystem") && I + 1 < Words.size();
    if (Separate) {
      Flags.push_back("-isystem");
      Flags.push_back(Words[++I].str());
    } else if (Word.consume_front("-I") || Word.consume_front("-isystem")) {
      Flags.push_back("-isystem");
      Flags.push_back(Word.str());
    } else if (Word.starts_with("-D")) {
      Flags.push_back(Word.str());
    }
  }
  return Flags;
}

} // namespace ompp::driver
