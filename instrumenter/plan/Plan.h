//===--- Plan.h - the rewrite plan: edits and regions -----------*- C++ -*-===//
//
// The planner turns the directive model into data: a list of edits (insert
// or replace text at main-file offsets) and the list of regions whose handles
// and CTC strings the emitter defines.  One handler per directive family,
// listed in an explicit table (plan/Handlers.cpp); handlers never touch text
// themselves.  Nothing here knows how edits are applied.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_PLAN_PLAN_H
#define OMPP_INSTRUMENTER_PLAN_PLAN_H

#include "model/Directive.h"
#include "model/LineTable.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ompp::instrument::plan {

struct PlanOptions {
  bool Opari2Compatible = false;
  bool KeepUntied = false;
  bool TimeTrivial = false; // atomic and flush: enter/exit events instead of a count
  std::set<std::string> Disabled; // family names, groups already expanded
  std::string FileName;           // as named on the command line: #line and CTC
};

/// One textual change.  Statement-level ("framed") code is put on lines of
/// its own and followed by a `#line` that returns to the original numbering;
/// inline edits (lock renames) replace tokens in place.
struct Edit {
  unsigned Offset = 0;
  unsigned Length = 0;     // 0: insertion
  std::string Code;
  bool Framed = true;
  int Rank = 0;            // order of edits at one offset, see Context::insert
  std::string Origin;      // "parallel at line 12", for conflict reports
};

struct Region {
  std::string Type;        // CTC regionType
  std::string File;        // source file of sscl/escl when not the unit's own (a `#line`
                           // of the input, a header inlined into it)
  unsigned Line = 0, LineEnd = 0, EndLine = 0, EndLineEnd = 0;
  std::map<std::string, std::string> Keys; // sorted, as OPARI2 does
  bool User = false;       // registered with POMP2_USER_Assign_handle
};

struct Plan {
  std::vector<Edit> Edits;
  std::vector<Region> Regions;      // handle i == ompp_region(i)
  bool NeedsUserGuard = false;      // C++ RAII types used by the edits
  bool NeedsTaskloopGuard = false;
  bool NeedsUserApi = false;        // POMP2_Begin & co. are called
  unsigned NumWarnings = 0;
};

/// Family names accepted by --disable, and group names (sync, task, omp).
std::vector<std::string> familyNames();
/// Expands group names; fails on unknown names.
llvm::Expected<std::set<std::string>> expandFamilies(const std::vector<std::string> &Names);

llvm::Expected<Plan> makePlan(const model::UnitModel &Unit, const PlanOptions &Options);

/// Whether ompp-instrument writes this CTC regionType (a row of
/// <pomp2/ompp_regions.def>, the vocabulary libompp reads it with).
bool isWrittenRegionType(llvm::StringRef Type);

/// OPARI2's CTC string for a region ("<len>*regionType=...**").
std::string ctcString(const Region &R, llvm::StringRef FileName);

} // namespace ompp::instrument::plan

#endif
