//===--- Ctc.cpp - CTC strings and clause keys ----------------------------===//
//
// OPARI2's "compile-time context" format (opari2-reference.md §1):
//   "<len>*regionType=<t>*sscl=<file>:<l1>:<l2>*escl=<file>:<l1>:<l2>*[key=value*]...*"
// where <len> is the length from the first '*' to the final "**", plus 2.
// A '*' in the file name (or in the function key's "operator*") would end
// the field: it is written "%2A", and '%' itself "%25" (libompp's CTC parser,
// runtime/core/ctc.cpp, decodes both).
//
//===----------------------------------------------------------------------===//
#include "plan/Context.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

namespace ompp::instrument::plan {

bool isWrittenRegionType(llvm::StringRef Type) {
#define OMPP_REGION_TYPE(Name, Kind, Written)                                                     \
  if ((Written) && Type == (Name))                                                                \
    return true;
#include <pomp2/ompp_regions.def>
  return false;
}

/// A file, function or lock name as a CTC value.
std::string ctcEscaped(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '*')
      Out += "%2A";
    else if (C == '%')
      Out += "%25";
    else
      Out += C;
  }
  return Out;
}

std::string ctcString(const Region &R, llvm::StringRef FileName) {
  // libompp reads regionType through the same table: a type missing from
  // it would be an "unknown regionType" at run time.
  if (!isWrittenRegionType(R.Type))
    llvm::report_fatal_error(llvm::Twine("internal error: regionType '") + R.Type +
                             "' is not a written row of <pomp2/ompp_regions.def>");
  std::string File = ctcEscaped(R.File.empty() ? FileName : llvm::StringRef(R.File));
  std::string Body = "*regionType=" + R.Type + "*sscl=" + File + ":" +
                     std::to_string(R.Line) + ":" + std::to_string(R.LineEnd) +
                     "*escl=" + File + ":" + std::to_string(R.EndLine) + ":" +
                     std::to_string(R.EndLineEnd) + "*";
  for (const auto &[Key, Value] : R.Keys)
    Body += Key + "=" + Value + "*";
  Body += "*";
  return std::to_string(Body.size() + 2) + Body;
}

namespace {

/// Keys OPARI2's own CTC parser accepts (pomp2_region_info.h); in
/// --opari2-compatible mode nothing else may appear, or libpomp rejects it.
bool opari2Knows(llvm::StringRef Key) {
  static constexpr llvm::StringLiteral Known[] = {"hasIf", "hasNum_threads", "hasReduction", "hasShared", "hasOrdered",
                             "hasCollapse", "hasNowait", "hasUntied", "hasCopyPrivate",
                             "hasSchedule", "hasDefault"};
  return llvm::is_contained(Known, Key);
}

/// A clause argument as a CTC value: comments, line continuations and
/// white space dropped, '*' (the CTC separator) written as '@'.
std::string ctcValue(llvm::StringRef S) {
  std::string Out;
  while (!S.empty()) {
    if (S.startswith("/*")) {
      size_t End = S.find("*/", 2);
      S = End == llvm::StringRef::npos ? "" : S.drop_front(End + 2);
    } else if (S.startswith("//")) {
      S = S.drop_until([](char C) { return C == '\n'; });
    } else {
      char C = S.front();
      S = S.drop_front();
      if (!llvm::isSpace(C) && C != '\\')
        Out += C == '*' ? '@' : C;
    }
  }
  return Out;
}

} // namespace

void addFunctionKey(Region &R, const model::UnitModel &Unit, unsigned Offset, bool Opari2Compatible) {
  if (Opari2Compatible)
    return; // libpomp rejects keys it does not know
  std::string Function = Unit.functionAt(Offset);
  if (!Function.empty())
    R.Keys["function"] = ctcEscaped(Function);
}

/// The has<Clause> keys of a directive's clauses (data-sharing clauses that
/// OPARI2 leaves out stay out).
void addClauseKeys(Region &R, const model::Directive &D, bool Opari2Compatible) {
  for (const model::Clause &C : D.Clauses) {
    std::string Key, Value = "1";
    switch (C.Kind) {
    case llvm::omp::OMPC_private:
    case llvm::omp::OMPC_firstprivate:
    case llvm::omp::OMPC_lastprivate:
    case llvm::omp::OMPC_copyin:
    case llvm::omp::OMPC_filter:
      if (C.Kind == llvm::omp::OMPC_filter)
        Key = "hasFilter";
      break;
    case llvm::omp::OMPC_copyprivate:
      Key = "hasCopyPrivate"; // the spelling OPARI2's parser accepts
      break;
    case llvm::omp::OMPC_schedule:
      Key = "hasSchedule";
      Value = ctcValue(C.Argument);
      break;
    case llvm::omp::OMPC_default:
      Key = "hasDefault";
      Value = ctcValue(C.Argument);
      if (Value == "shared")
        Key.clear();
      break;
    default: {
      std::string Name = llvm::omp::getOpenMPClauseName(C.Kind).str();
      if (Name.empty())
        break;
      Name[0] = llvm::toUpper(Name[0]);
      Key = "has" + Name;
    }
    }
    if (Key.empty() || (Opari2Compatible && !opari2Knows(Key)))
      continue;
    R.Keys[Key] = Value;
  }
}

} // namespace ompp::instrument::plan
