//===--- Emit.cpp - apply a rewrite plan to the original text -------------===//
#include "emit/Emit.h"

#include "model/LineTable.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace ompp::instrument::emit {

using plan::Edit;

std::string cStringLiteral(llvm::StringRef Text) {
  std::string Out = "\"";
  for (unsigned char C : Text) {
    if (C == '"' || C == '\\')
      Out += {'\\', static_cast<char>(C)};
    else if (llvm::isPrint(C))
      Out += static_cast<char>(C);
    else {
      llvm::raw_string_ostream OS(Out);
      OS << '\\' << llvm::format("%03o", C);
    }
  }
  return Out + "\"";
}

namespace {

class Framer {
public:
  Framer(const model::UnitModel &Unit, const EmitOptions &Options)
      : Unit(Unit), Text(Unit.Text), Lines(Unit.Text),
        File(cStringLiteral(Options.FileName)) {}

  /// Statement-level code replacing [Begin, End): on lines of its own, then
  /// a `#line` back to the original numbering and the original column.
  std::string frame(unsigned Begin, unsigned End, llvm::StringRef Code) const {
    std::string Out = Lines.column(Begin) > 0 ? "\n" : "";
    Out += Code.str() + "\n";
    if (End >= Text.size() || Text[End] == '\n')
      return Out + lineDirective(Lines.line(End) + 1) + (End >= Text.size() ? "\n" : "");
    return Out + lineDirective(Lines.line(End)) + "\n" + std::string(Lines.column(End), ' ');
  }

private:
  /// `#line` for a physical line: its own number, or what the input's own
  /// `#line` directives made of it.
  std::string lineDirective(unsigned Physical) const {
    model::PresumedLine P = Unit.presumed(Physical);
    return "#line " + std::to_string(P.Line) + " " + (P.File.empty() ? File : cStringLiteral(P.File));
  }

  const model::UnitModel &Unit;
  llvm::StringRef Text;
  model::LineTable Lines;
  std::string File;
};

/// Handles, CTC strings and the C++ helper types, placed before the first
/// top-level declaration that gets instrumented, outside any declarative scope.
std::string prologue(const plan::Plan &Plan, const EmitOptions &Options) {
  // ompp's own headers include no system header (see <pomp2/pomp2_lib.h>);
  // OPARI2's protocol calls omp_get_max_threads() at every fork.
  std::string Out = Options.Opari2Compatible ? "#include <omp.h>\n#include <pomp2/pomp2_lib.h>\n"
                                             : "#include <pomp2/pomp2_ompp.h>\n";
  if (Plan.NeedsUserApi)
    Out += "#include <pomp2/pomp2_user_lib.h>\n";
  if (!Plan.Regions.empty()) {
    unsigned N = Plan.Regions.size();
    Out += "static POMP2_Region_handle ompp_regions[" + std::to_string(N) + "];\n";
    Out += "static const char *const ompp_ctcs[" + std::to_string(N) + "] = {\n";
    for (const plan::Region &R : Plan.Regions)
      Out += "  " + cStringLiteral(plan::ctcString(R, Options.FileName)) + ",\n";
    Out += "};\n";
    // Functions, not the arrays, are named inside constructs: file-scope
    // variables would need listing under default(none).
    Out += "static __inline__ POMP2_Region_handle *ompp_region(int i) { return &ompp_regions[i]; }\n"
           "static __inline__ const char *ompp_ctc(int i) { return ompp_ctcs[i]; }\n";
  }
  // Null pointers are value-initialised, never a literal 0
  // (-Wzero-as-null-pointer-constant), and C++98 has no nullptr.
  if (Plan.NeedsUserGuard)
    Out += "struct ompp_user_region_guard {\n"
           "  typedef POMP2_Region_handle *pointer;\n"
           "  pointer handle;\n"
           "  explicit ompp_user_region_guard(pointer h) : handle(h) {}\n"
           "  ~ompp_user_region_guard() { end(); }\n"
           "  void end() { if (handle) { POMP2_End(handle); handle = pointer(); } }\n"
           "private:\n"
           "  ompp_user_region_guard(const ompp_user_region_guard &);\n"
           "  ompp_user_region_guard &operator=(const ompp_user_region_guard &);\n"
           "};\n";
  // `begun` is the handle once the task has begun, null before: no padding
  // as with a bool; the assignment is declared private, as for a class with
  // a pointer member (g++'s -Weffc++).
  if (Plan.NeedsTaskloopGuard)
    Out += "struct ompp_taskloop_task_guard {\n"
           "  POMP2_Region_handle *handle;\n"
           "  POMP2_Region_handle *begun;\n"
           "  explicit ompp_taskloop_task_guard(POMP2_Region_handle *h) : handle(h), begun() {}\n"
           "  ompp_taskloop_task_guard(const ompp_taskloop_task_guard &o) : handle(o.handle), begun() {}\n"
           "  ~ompp_taskloop_task_guard() { if (begun) POMP2_Taskloop_task_end(begun); }\n"
           "  void begin_task() {\n"
           "    if (!begun) { begun = handle; POMP2_Taskloop_task_begin(handle, POMP2_Get_new_task_handle()); }\n"
           "  }\n"
           "private:\n"
           "  ompp_taskloop_task_guard &operator=(const ompp_taskloop_task_guard &);\n"
           "};\n";
  return Out;
}

std::string registration(const plan::Plan &Plan, const EmitOptions &Options, bool CPlusPlus) {
  auto Assign = [&](bool User) {
    std::string Out;
    for (unsigned I = 0; I < Plan.Regions.size(); ++I)
      if (Plan.Regions[I].User == User)
        Out += std::string("  ") + (User ? "POMP2_USER_Assign_handle" : "POMP2_Assign_handle") +
               "(&ompp_regions[" + std::to_string(I) + "], ompp_ctcs[" + std::to_string(I) + "]);\n";
    return Out;
  };
  if (!Options.Opari2Compatible) {
    if (Plan.Regions.empty())
      return "";
    return "static void ompp_register_regions(void) __attribute__((constructor));\n"
           "static void ompp_register_regions(void) {\n" +
           Assign(false) + Assign(true) + "}\n";
  }
  // OPARI2's init protocol: `nm` finds these, the awk script sums the counts.
  // Each is declared first: an external function defined without a previous
  // declaration is a -Wmissing-declarations / -Wmissing-prototypes warning.
  std::string ExternC = CPlusPlus ? "extern \"C\" " : "";
  auto Initializer = [&](const std::string &Name, bool User) {
    const std::string Head = ExternC + "void " + Name + "(void)";
    return Head + ";\n" + Head + " {\n" + Assign(User) + "}\n";
  };
  unsigned Users = llvm::count_if(Plan.Regions, [](const plan::Region &R) { return R.User; });
  std::string Out = Initializer("POMP2_Init_reg_" + Options.UnitId + "_" + std::to_string(Plan.Regions.size() - Users),
                                false);
  if (Users)
    Out += Initializer("POMP2_USER_Init_reg_" + Options.UnitId + "_" + std::to_string(Users), true);
  return Out;
}

} // namespace

llvm::Expected<std::string> emit(const model::UnitModel &Unit, const plan::Plan &Plan,
                                 const EmitOptions &Options) {
  std::vector<Edit> Edits = Plan.Edits;
  if (!Edits.empty() || !Plan.Regions.empty()) {
    unsigned First = Unit.Text.size();
    for (const Edit &E : Edits)
      First = std::min(First, E.Offset);
    Edit P;
    P.Offset = Unit.fileScopeInsertionPoint(First).value_or(0);
    P.Code = prologue(Plan, Options);
    P.Code.pop_back(); // framing adds the newline
    P.Rank = -1000000;
    P.Origin = "the region definitions";
    Edits.push_back(std::move(P));
  }
  std::stable_sort(Edits.begin(), Edits.end(), [](const Edit &A, const Edit &B) {
    return std::tie(A.Offset, A.Rank) < std::tie(B.Offset, B.Rank);
  });

  Framer Frame(Unit, Options);
  clang::tooling::Replacements Reps;
  const Edit *PreviousReplace = nullptr;
  for (size_t I = 0; I < Edits.size();) {
    size_t J = I;
    std::vector<std::string> Codes;
    const Edit *Replace = nullptr;
    bool Framed = false;
    for (; J < Edits.size() && Edits[J].Offset == Edits[I].Offset; ++J) {
      const Edit &E = Edits[J];
      if (E.Length > 0) {
        if (Replace)
          return llvm::createStringError(std::errc::invalid_argument,
                                         "internal error: conflicting edits for %s and %s",
                                         Replace->Origin.c_str(), E.Origin.c_str());
        Replace = &E;
      } else if (!E.Code.empty() || E.Framed) {
        Codes.push_back(E.Code);
      }
      Framed |= E.Framed;
    }
    if (PreviousReplace && PreviousReplace->Offset + PreviousReplace->Length > Edits[I].Offset)
      return llvm::createStringError(std::errc::invalid_argument,
                                     "internal error: conflicting edits for %s and %s",
                                     PreviousReplace->Origin.c_str(), Edits[I].Origin.c_str());
    unsigned Offset = Edits[I].Offset, Length = Replace ? Replace->Length : 0;
    std::string Text;
    if (Framed) {
      if (Replace && Replace->Framed)
        Codes.push_back(Replace->Code);
      Text = Frame.frame(Offset, Replace && Replace->Framed ? Offset + Length : Offset,
                         llvm::join(Codes, "\n"));
      if (Replace && !Replace->Framed)
        Text += Replace->Code;
    } else {
      Text = llvm::join(Codes, "") + (Replace ? Replace->Code : "");
    }
    if (auto Err = Reps.add(clang::tooling::Replacement(Options.FileName, Offset, Length, Text)))
      return llvm::createStringError(std::errc::invalid_argument,
                                     "internal error: conflicting edits at %s: %s",
                                     Edits[I].Origin.c_str(), llvm::toString(std::move(Err)).c_str());
    if (Replace)
      PreviousReplace = Replace;
    I = J;
  }
  auto Body = clang::tooling::applyAllReplacements(Unit.Text, Reps);
  if (!Body)
    return Body.takeError();
  std::string Out = Options.Marker + "\n#line 1 " + cStringLiteral(Options.FileName) + "\n" + *Body;
  if (!Out.empty() && Out.back() != '\n')
    Out += '\n';
  return Out + registration(Plan, Options, Unit.CPlusPlus);
}

} // namespace ompp::instrument::emit
