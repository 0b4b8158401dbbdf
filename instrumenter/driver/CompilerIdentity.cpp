//===- CompilerIdentity.cpp - Which compiler is behind a command ----------===//

#include "CompilerIdentity.h"

#include "llvm/ADT/SmallVector.h"

namespace ompp::driver {

llvm::StringRef CompilerIdentity::familyName() const {
  switch (Kind) {
  case Family::Clang:
    return "clang";
  case Family::GCC:
    return "gcc";
  case Family::Other:
    break;
  }
  return "an unknown compiler";
}

CompilerIdentity identityFromMacros(llvm::StringRef Macros) {
  CompilerIdentity Identity;
  bool Clang = false, GNU = false;
  llvm::SmallVector<llvm::StringRef> Lines;
  Macros.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (!Line.consume_front("#define "))
      continue;
    auto [Name, Value] = Line.split(' ');
    if (Name == "__clang__")
      Clang = true;
    else if (Name == "__GNUC__")
      GNU = true;
    else if (Name == "_OPENMP")
      Identity.OpenMPDate = Value.trim().str();
    else if (Name == "__VERSION__")
      Identity.Version = Value.trim().trim('"').str();
  }
  // Clang defines __GNUC__ too (as do icx and others built on it).
  if (Clang)
    Identity.Kind = CompilerIdentity::Family::Clang;
  else if (GNU)
    Identity.Kind = CompilerIdentity::Family::GCC;
  return Identity;
}

} // namespace ompp::driver
