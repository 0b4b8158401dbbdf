//===--- UserRegions.cpp - #pragma pomp and OpenMP lock calls -------------===//
#include "plan/Context.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

namespace ompp::instrument::plan {

using model::PompPragma;
using model::Span;
using Action = PompPragma::Action;

namespace {

/// The innermost compound statement around an offset.
std::optional<Span> scopeOf(const model::UnitModel &Unit, unsigned Offset) {
  std::optional<Span> Best;
  for (Span S : Unit.CompoundStatements)
    if (S.contains(Offset) && (!Best || S.Begin >= Best->Begin))
      Best = S;
  return Best;
}

bool sameScope(std::optional<Span> A, std::optional<Span> B) {
  return A && B && A->Begin == B->Begin && A->End == B->End;
}

struct UserRegion {
  size_t Begin;
  std::optional<size_t> End;
  std::vector<size_t> Altends;
  unsigned Number = 0;
  bool Guarded = false;
};

/// `#pragma pomp inst ...` becomes a call: only valid inside a function.
llvm::Error checkInsideFunctions(const Context &Ctx) {
  for (const PompPragma &P : Ctx.Unit.Pomp) {
    if (!P.Text || P.What == Action::Unknown || P.What == Action::NoInstrument ||
        P.What == Action::Instrument || scopeOf(Ctx.Unit, P.Text->Begin))
      continue;
    std::string Text = Ctx.Unit.Text.substr(P.Text->Begin, P.Text->End - P.Text->Begin);
    return llvm::createStringError(
        std::errc::invalid_argument,
        "%s:%u:%u: error: '%s' outside a function body: it stands for a call and belongs "
        "between statements",
        Ctx.Options.FileName.c_str(), P.Line, Ctx.lines().column(P.Text->Begin) + 1, Text.c_str());
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error planUserRegions(Context &Ctx) {
  const model::UnitModel &Unit = Ctx.Unit;
  if (Ctx.Options.Disabled.count("pomp"))
    return llvm::Error::success();
  if (auto Err = checkInsideFunctions(Ctx))
    return Err;
  std::vector<Span> Zones;
  bool InZone = false;
  unsigned ZoneStart = 0;
  std::vector<UserRegion> Regions;
  std::map<std::string, std::vector<size_t>> Open; // name -> stack of Regions indices
  std::vector<std::optional<size_t>> RegionOfPragma(Unit.Pomp.size());

  for (size_t I = 0; I < Unit.Pomp.size(); ++I) {
    const PompPragma &P = Unit.Pomp[I];
    if (!P.Text) {
      Ctx.warn(P.Line, "not instrumented: '#pragma pomp' inside a macro expansion");
      continue;
    }
    switch (P.What) {
    case Action::Unknown:
      Ctx.warn(P.Line, "unknown '#pragma pomp' form, left as is (expected 'inst begin(name)|"
                       "end(name)|altend(name)|init|finalize|on|off' or 'noinstrument|instrument')");
      break;
    case Action::NoInstrument:
      if (!InZone)
        ZoneStart = P.Text->Begin;
      InZone = true;
      break;
    case Action::Instrument:
      if (InZone)
        Zones.push_back(Span{ZoneStart, P.Text->Begin});
      InZone = false;
      break;
    case Action::Begin:
      Open[P.RegionName].push_back(Regions.size());
      RegionOfPragma[I] = Regions.size();
      Regions.push_back(UserRegion{I, std::nullopt, {}, 0, false});
      break;
    case Action::End:
    case Action::Altend: {
      auto &Stack = Open[P.RegionName];
      if (Stack.empty()) {
        Ctx.warn(P.Line, "'#pragma pomp inst " +
                             std::string(P.What == Action::End ? "end" : "altend") + "(" +
                             P.RegionName + ")' without a matching begin: ignored");
        break;
      }
      RegionOfPragma[I] = Stack.back();
      if (P.What == Action::End) {
        Regions[Stack.back()].End = I;
        Stack.pop_back();
      } else {
        Regions[Stack.back()].Altends.push_back(I);
      }
      break;
    }
    default:
      break;
    }
  }
  if (InZone)
    Zones.push_back(Span{ZoneStart, static_cast<unsigned>(Unit.Text.size())});
  Ctx.setNoInstrumentZones(Zones);

  // C++ (native mode): a guard object ends the region on any exit from the
  // begin's scope; it needs the end in that same scope.
  bool Guards = Unit.CPlusPlus && !Ctx.Options.Opari2Compatible;
  for (UserRegion &R : Regions) {
    const PompPragma &B = Unit.Pomp[R.Begin];
    Region Data;
    Data.Type = "userRegion";
    Data.User = true;
    Data.Line = Data.LineEnd = B.Line;
    Data.EndLine = Data.EndLineEnd = R.End ? Unit.Pomp[*R.End].Line : B.Line;
    Data.Keys["userRegionName"] = B.RegionName;
    addFunctionKey(Data, Unit, B.Text->Begin, Ctx.Options.Opari2Compatible);
    Ctx.plan().Regions.push_back(Data);
    R.Number = Ctx.plan().Regions.size() - 1;
    auto Scope = scopeOf(Unit, B.Text->Begin);
    R.Guarded = Guards && R.End && sameScope(Scope, scopeOf(Unit, Unit.Pomp[*R.End].Text->Begin));
    if (!R.End)
      Ctx.warn(B.Line, "user region '" + B.RegionName + "' has no '#pragma pomp inst end(" +
                           B.RegionName + ")'" +
                           (Guards && Scope ? ": it ends with the enclosing block" : ""));
    if (R.End && !R.Guarded && R.Altends.empty()) {
      unsigned From = B.Text->Begin, To = Unit.Pomp[*R.End].Text->Begin;
      if (llvm::any_of(Unit.EarlyExits, [&](unsigned O) { return From < O && O < To; }))
        Ctx.warn(B.Line, "user region '" + B.RegionName +
                             "': a return/goto between begin and end leaves it without an end "
                             "event; mark such exits with '#pragma pomp inst altend(" +
                             B.RegionName + ")'");
    }
    if (!R.End && Guards && Scope)
      R.Guarded = true;
  }

  for (size_t I = 0; I < Unit.Pomp.size(); ++I) {
    const PompPragma &P = Unit.Pomp[I];
    if (!P.Text || P.What == Action::Unknown)
      continue;
    std::string Code;
    std::string Guard;
    const UserRegion *R = RegionOfPragma[I] ? &Regions[*RegionOfPragma[I]] : nullptr;
    if (R && R->Guarded)
      Guard = Context::local("ompp_user_guard", R->Number);
    switch (P.What) {
    case Action::Init: Code = "POMP2_Init();"; break;
    case Action::Finalize: Code = "POMP2_Finalize();"; break;
    case Action::On: Code = "POMP2_On();"; break;
    case Action::Off: Code = "POMP2_Off();"; break;
    case Action::NoInstrument:
    case Action::Instrument: break; // the pragma is dropped: compilers would warn about it
    case Action::Unknown: break;
    case Action::Begin:
      Code = "POMP2_Begin(" + Context::handle(R->Number) + ", " + Context::ctc(R->Number) + ");";
      if (R->Guarded) {
        Code += " ompp_user_region_guard " + Guard + "(" + Context::handle(R->Number) + ");";
        Ctx.plan().NeedsUserGuard = true;
      }
      break;
    case Action::End:
    case Action::Altend:
      if (!R)
        continue;
      Code = R->Guarded ? Guard + ".end();" : "POMP2_End(" + Context::handle(R->Number) + ");";
      break;
    }
    if (P.What != Action::NoInstrument && P.What != Action::Instrument)
      Ctx.plan().NeedsUserApi = true;
    Ctx.replace(*P.Text, Code, true, "'#pragma pomp' at line " + std::to_string(P.Line));
  }
  return llvm::Error::success();
}

namespace {

/// The first argument of the call whose callee name ends at Offset, as
/// written (white space collapsed, a leading '&' dropped: `&locks[i]` names
/// `locks[i]`) with its span; none when no call follows the name.
std::optional<std::pair<std::string, model::Span>> firstArgument(llvm::StringRef Text, unsigned Offset) {
  unsigned Open = Offset;
  while (Open < Text.size() && llvm::isSpace(Text[Open]))
    ++Open;
  if (Open >= Text.size() || Text[Open] != '(')
    return std::nullopt;
  int Depth = 0;
  std::string Argument;
  for (unsigned I = Open + 1; I < Text.size(); ++I) {
    char C = Text[I];
    if ((C == ')' || C == ',') && Depth == 0) {
      llvm::StringRef Name = llvm::StringRef(Argument).trim();
      if (Name.startswith("&"))
        Name = Name.drop_front().ltrim();
      return std::make_pair(Name.str(), model::Span{Offset, I + 1});
    }
    Depth += C == '(' || C == '[' ? 1 : C == ')' || C == ']' ? -1 : 0;
    if (!llvm::isSpace(C))
      Argument += C;
    else if (!Argument.empty() && Argument.back() != ' ')
      Argument += ' ';
  }
  return std::nullopt;
}

/// Native mode: the callee of an init call becomes
/// `(POMP2_Lock_init_site(handle, ctc), POMP2_Init_lock)`, so the lock is
/// named by its argument and the call's location, with the POMP2 lock ABI
/// unchanged.  Returns the callee's replacement, or none to keep the name.
std::optional<std::string> namedInit(Context &Ctx, const model::LockReference &L, const std::string &Wrapper) {
  if (Ctx.Options.Opari2Compatible || !llvm::StringRef(L.Callee).startswith("omp_init_"))
    return std::nullopt;
  auto Argument = firstArgument(Ctx.Unit.Text, L.Name.End);
  if (!Argument || Argument->first.empty())
    return std::nullopt;
  unsigned N = Ctx.regionAt(Argument->second, "lock");
  Ctx.regionData(N).Keys["lockName"] = ctcEscaped(Argument->first);
  return "(POMP2_Lock_init_site(" + Context::handle(N) + ", " + Context::ctc(N) + "), " + Wrapper + ")";
}

} // namespace

void planLocks(Context &Ctx) {
  // Each wrapper is declared where the code first names its omp_* function,
  // with that function's own type: <omp.h> is in scope there, and function
  // pointers, hint enums and C++ exception specifications match it exactly.
  // A kept pointer to the omp_* function goes with it: once every call is
  // renamed, a program whose only OpenMP calls were lock calls would
  // otherwise lose its OpenMP runtime to the linker's --as-needed.
  std::vector<model::LockReference> Locks = Ctx.Unit.Locks;
  llvm::sort(Locks, [](const auto &A, const auto &B) { return A.Name.Begin < B.Name.Begin; });
  std::set<std::string> Declared;
  for (const model::LockReference &L : Locks) {
    llvm::StringRef Rest = llvm::StringRef(L.Callee).drop_front(4); // "omp_"
    if (Rest.endswith("_with_hint") && Ctx.Options.Opari2Compatible)
      continue;
    unsigned Line = Ctx.lines().line(L.Name.Begin);
    std::optional<unsigned> DeclBegin = Ctx.Unit.topLevelDeclBegin(L.Name.Begin);
    if (!DeclBegin) {
      Ctx.note(Line, L.Callee + " is not measured: it is named outside any declaration");
      continue;
    }
    std::string Name = "POMP2_" + Rest.str();
    Name[6] = llvm::toUpper(Name[6]);
    if (Declared.insert(Name).second) {
      Edit Declaration;
      Declaration.Offset = *DeclBegin;
      Declaration.Code = std::string(Ctx.Unit.CPlusPlus ? "extern \"C\" " : "") + "__typeof__(" +
                         L.Callee + ") " + Name + ";\nstatic __typeof__(" + L.Callee +
                         ") *const ompp_keeps_" + L.Callee + " __attribute__((used)) = " + L.Callee +
                         ";";
      Declaration.Rank = -999999; // after the region definitions, before any construct
      Declaration.Origin = "the declaration of " + Name;
      Ctx.plan().Edits.push_back(std::move(Declaration));
    }
    Ctx.replace(L.Name, namedInit(Ctx, L, Name).value_or(Name), false,
                L.Callee + " at line " + std::to_string(Line));
  }
}

} // namespace ompp::instrument::plan
