//===--- Plan.cpp - from the directive model to edits and regions ---------===//
#include "plan/Context.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace ompp::instrument::plan {

using model::Construct;
using model::Directive;

unsigned Context::region(size_t Index, llvm::StringRef Type) {
  const Directive &D = Unit.Directives[Index];
  Region R;
  R.Type = Type.str();
  R.Line = D.Line;
  R.LineEnd = D.LineEnd;
  R.EndLine = R.EndLineEnd = D.EndLine;
  if (D.Whole) {
    R.File = Unit.presumed(Lines.line(D.Whole->Begin)).File;
    addFunctionKey(R, Unit, D.Whole->Begin, Options.Opari2Compatible);
  }
  addClauseKeys(R, D, Options.Opari2Compatible);
  if (!D.CriticalName.empty())
    R.Keys["criticalName"] = D.CriticalName;
  if (!Options.Opari2Compatible && !D.CancelRegion.empty())
    R.Keys["cancelKind"] = D.CancelRegion;
  Out.Regions.push_back(std::move(R));
  unsigned N = Out.Regions.size() - 1;
  RegionOfDirective.emplace(Index, N);
  return N;
}

unsigned Context::regionAt(model::Span S, llvm::StringRef Type) {
  Region R;
  R.Type = Type.str();
  R.Line = R.LineEnd = Lines.line(S.Begin);
  R.EndLine = R.EndLineEnd = Lines.line(S.End > S.Begin ? S.End - 1 : S.Begin);
  R.File = Unit.presumed(R.Line).File;
  addFunctionKey(R, Unit, S.Begin, Options.Opari2Compatible);
  Out.Regions.push_back(std::move(R));
  return Out.Regions.size() - 1;
}

std::optional<unsigned> Context::regionOf(size_t Index) const {
  auto It = RegionOfDirective.find(Index);
  if (It == RegionOfDirective.end())
    return std::nullopt;
  return It->second;
}

std::string Context::where(const Directive &D) const {
  return "'" + D.Name + "' at line " + std::to_string(D.Line);
}

void Context::insert(unsigned Offset, unsigned DepthKey, bool Closing, std::string Code,
                     const Directive &D) {
  Edit E;
  E.Offset = Offset;
  E.Code = std::move(Code);
  // Closings at one offset run inner-first, openings outer-first, and all
  // closings precede all openings (a construct ends before the next begins).
  E.Rank = Closing ? -static_cast<int>(DepthKey) : 10000 + static_cast<int>(DepthKey);
  E.Origin = where(D);
  Out.Edits.push_back(std::move(E));
}

void Context::replacePragma(const Directive &D, std::string Text) {
  replace(*D.Pragma, std::move(Text), true, where(D));
}

void Context::replace(model::Span S, std::string Text, bool Framed, std::string Origin) {
  Edit E;
  E.Offset = S.Begin;
  E.Length = S.End - S.Begin;
  E.Code = std::move(Text);
  E.Framed = Framed;
  E.Rank = 20000;
  E.Origin = std::move(Origin);
  Out.Edits.push_back(std::move(E));
}

void Context::warn(unsigned Line, const std::string &Message) {
  llvm::errs() << Options.FileName << ":" << Line << ": warning: " << Message << "\n";
  ++Out.NumWarnings;
}

void Context::warnAt(unsigned Offset, const std::string &Message) {
  model::PresumedLine P = Unit.presumed(Lines.line(Offset));
  llvm::errs() << (P.File.empty() ? Options.FileName : P.File) << ":" << P.Line << ": warning: " << Message
               << "\n";
  ++Out.NumWarnings;
}

void Context::note(unsigned Line, const std::string &Message) {
  llvm::errs() << Options.FileName << ":" << Line << ": note: " << Message << "\n";
}

bool Context::inNoInstrumentZone(unsigned Offset) const {
  return llvm::any_of(NoInstrument, [&](model::Span S) { return S.contains(Offset); });
}

bool Context::containsCancellation(size_t Index) const {
  for (const Directive &D : Unit.Directives) {
    if (D.Kind != Construct::Cancel && D.Kind != Construct::CancellationPoint)
      continue;
    for (int P = D.Parent; P >= 0; P = Unit.Directives[P].Parent)
      if (static_cast<size_t>(P) == Index)
        return true;
  }
  return false;
}

namespace {

struct Group {
  const char *Name;
  std::vector<const char *> Members;
};

const std::vector<Group> &groups() {
  static const std::vector<Group> Groups = {
      {"sync", {"atomic", "barrier", "critical", "flush", "locks", "ordered", "taskwait",
                "taskyield", "taskgroup"}},
      {"task", {"task", "taskwait", "taskyield", "taskgroup", "taskloop"}},
  };
  return Groups;
}

/// Parallel regions stay instrumented between `#pragma pomp noinstrument`
/// and `instrument` (thread management needs their events).
bool startsParallelRegion(Construct K) {
  return K == Construct::Parallel || K == Construct::ParallelFor ||
         K == Construct::ParallelForSimd || K == Construct::ParallelLoop ||
         K == Construct::ParallelSections || K == Construct::ParallelMaster ||
         K == Construct::ParallelMasked;
}

} // namespace

bool Context::mayBeCancelled(size_t Index) const {
  if (containsCancellation(Index))
    return true;
  for (int P = Unit.Directives[Index].Parent; P >= 0; P = Unit.Directives[P].Parent)
    if (startsParallelRegion(Unit.Directives[P].Kind))
      return containsCancellation(P);
  return false;
}

namespace {

bool insideDevice(const model::UnitModel &Unit, const Directive &D) {
  for (int P = D.Parent; P >= 0; P = Unit.Directives[P].Parent)
    if (Unit.Directives[P].Kind == Construct::Device)
      return true;
  return false;
}

} // namespace

std::vector<std::string> familyNames() {
  std::set<std::string> Names = {"locks", "pomp"};
  for (const HandlerEntry &H : handlerTable())
    Names.insert(H.Family);
  for (const Group &G : groups())
    Names.insert(G.Name);
  return {Names.begin(), Names.end()};
}

llvm::Expected<std::set<std::string>> expandFamilies(const std::vector<std::string> &Names) {
  std::vector<std::string> Known = familyNames();
  std::set<std::string> Out;
  for (const std::string &Name : Names) {
    if (!llvm::is_contained(Known, Name))
      return llvm::createStringError(std::errc::invalid_argument,
                                     "unknown construct family '%s' (known: %s)", Name.c_str(),
                                     llvm::join(Known, ", ").c_str());
    Out.insert(Name);
    for (const Group &G : groups())
      if (Name == G.Name)
        Out.insert(G.Members.begin(), G.Members.end());
  }
  return Out;
}

llvm::Expected<Plan> makePlan(const model::UnitModel &Unit, const PlanOptions &Options) {
  Plan Out;
  Context Ctx(Unit, Options, Out);
  for (const auto &[Line, What] : Unit.Unmappable)
    Ctx.warn(Line, "not instrumented: " + What);
  for (const model::HeaderDirectives &H : Unit.HeaderPragmas)
    Ctx.warnAt(H.IncludeOffset, "not instrumented: " + std::to_string(H.Count) + " OpenMP directive" +
                                (H.Count == 1 ? "" : "s") + " in header '" + H.File +
                                "' (first at line " + std::to_string(H.FirstLine) + "; " +
                                (H.NotInlined.empty()
                                     ? std::string("ompp rewrites the files it compiles, not the "
                                                   "headers they include")
                                     : "the header could not be inlined: " + H.NotInlined) +
                                ")");
  // User regions first: they also define the noinstrument zones.
  if (auto Err = planUserRegions(Ctx))
    return Err;
  for (size_t I = 0; I < Unit.Directives.size(); ++I) {
    const Directive &D = Unit.Directives[I];
    if (D.Kind == Construct::Passive || insideDevice(Unit, D))
      continue;
    if (D.FromMetadirective) {
      // Compilers choose variants differently (gcc-12 ignores metadirective).
      Ctx.note(D.Line, "'metadirective' left as is: each compiler chooses its own variant" +
                           (D.DirectiveKind == llvm::omp::OMPD_metadirective
                                ? std::string() // Clang could not choose (textual front end)
                                : " ('" + D.Name + "' for Clang)"));
      continue;
    }
    if (D.Kind == Construct::Device) {
      Ctx.note(D.Line, "'" + D.Name + "' left as is: device code is not profiled");
      continue;
    }
    const HandlerEntry *Entry = nullptr;
    for (const HandlerEntry &H : handlerTable())
      if (H.Kind == D.Kind)
        Entry = &H;
    if (!Entry) {
      Ctx.warn(D.Line, "not instrumented: '" + D.Name + "' is not supported by ompp-instrument");
      continue;
    }
    if (Options.Disabled.count(Entry->Family))
      continue;
    if (Entry->NativeOnly && Options.Opari2Compatible) {
      Ctx.note(D.Line, "'" + D.Name + "' left as is: OPARI2's POMP2 API has no call for it");
      continue;
    }
    if (!D.Whole) {
      Ctx.warn(D.Line, "not instrumented: " + Ctx.where(D) + " " +
                           (D.NotEditable.empty()
                                ? "spans a macro boundary (its text cannot be edited)"
                                : D.NotEditable));
      continue;
    }
    if (!startsParallelRegion(D.Kind) && Ctx.inNoInstrumentZone(D.Whole->Begin))
      continue;
    Entry->Plan(I, D, Ctx);
  }
  if (!Options.Disabled.count("locks"))
    planLocks(Ctx);
  return Out;
}

} // namespace ompp::instrument::plan
