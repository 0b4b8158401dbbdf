// Unit tests of the rewriter layers that need no compiler run: CTC strings,
// the line table, edit merging and conflict reports of the emitter, the
// --disable family names and the clause-placement table's coverage.
#include "emit/Emit.h"
#include "model/LineTable.h"
#include "plan/ClausePlacement.h"
#include "plan/Context.h"
#include "plan/Plan.h"
#include "rewriter/Rewriter.h"

#include <catch2/catch.hpp>

#include "llvm/ADT/SmallString.h"
#include "llvm/Frontend/OpenMP/OMP.h.inc"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace ompp::instrument;

TEST_CASE("CTC strings follow OPARI2's format and length rule") {
  plan::Region R;
  R.Type = "parallel";
  R.Line = R.LineEnd = 4;
  R.EndLine = R.EndLineEnd = 7;
  R.Keys = {{"hasNum_threads", "1"}, {"hasIf", "1"}};
  std::string Ctc = plan::ctcString(R, "a.c");
  std::string Body = "*regionType=parallel*sscl=a.c:4:4*escl=a.c:7:7*hasIf=1*hasNum_threads=1**";
  CHECK(Ctc == std::to_string(Body.size() + 2) + Body);
}

TEST_CASE("regionTypes come from pomp2/ompp_regions.def") {
  CHECK(plan::isWrittenRegionType("parallelfor"));
  CHECK(plan::isWrittenRegionType("userRegion"));
  CHECK_FALSE(plan::isWrittenRegionType("paralleldo")); // read from OPARI2 output, never written
  CHECK_FALSE(plan::isWrittenRegionType("parallel for"));
}

TEST_CASE("clause values in CTC strings drop comments, continuations and spaces") {
  model::Directive D;
  model::Clause Schedule;
  Schedule.Kind = llvm::omp::OMPC_schedule;
  Schedule.Argument = "dynamic  /* for */ \\\n  , n * 2 // chunk\n";
  D.Clauses.push_back(Schedule);
  plan::Region R;
  plan::addClauseKeys(R, D, false);
  CHECK(R.Keys["hasSchedule"] == "dynamic,n@2");
}

TEST_CASE("line table maps offsets to lines and columns") {
  model::LineTable T("ab\ncd\n\nx");
  CHECK(T.line(0) == 1);
  CHECK(T.line(3) == 2);
  CHECK(T.column(4) == 1);
  CHECK(T.line(6) == 3);
  CHECK(T.line(7) == 4);
}

namespace {
plan::Edit edit(unsigned Offset, unsigned Length, std::string Code, bool Framed, int Rank,
                std::string Origin) {
  plan::Edit E;
  E.Offset = Offset;
  E.Length = Length;
  E.Code = std::move(Code);
  E.Framed = Framed;
  E.Rank = Rank;
  E.Origin = std::move(Origin);
  return E;
}
emit::EmitOptions options() {
  emit::EmitOptions O;
  O.FileName = "t.c";
  O.Marker = "MARK";
  return O;
}
} // namespace

TEST_CASE("edits at one offset are merged in rank order and framed with #line") {
  model::UnitModel Unit;
  Unit.Text = "int f(void) {\n  g();\n}\n";
  Unit.TopLevelDecls.push_back({0, 24});
  plan::Plan P;
  P.Edits.push_back(edit(16, 0, "CLOSE_INNER();", true, -4, "inner"));
  P.Edits.push_back(edit(16, 0, "OPEN_OUTER();", true, 10000, "outer"));
  P.Edits.push_back(edit(16, 1, "G", false, 20000, "rename"));
  auto Out = emit::emit(Unit, P, options());
  REQUIRE(static_cast<bool>(Out));
  CHECK(Out->find("MARK\n#line 1 \"t.c\"\n") == 0);
  CHECK(Out->find("\nCLOSE_INNER();\nOPEN_OUTER();\n#line 2 \"t.c\"\n  G();") != std::string::npos);
}

TEST_CASE("overlapping edits are reported as a bug naming both constructs") {
  model::UnitModel Unit;
  Unit.Text = "int f(void) { return 0; }\n";
  plan::Plan P;
  P.Edits.push_back(edit(14, 6, "#pragma A", true, 20000, "'for' at line 3"));
  P.Edits.push_back(edit(16, 4, "#pragma B", true, 20000, "'task' at line 9"));
  auto Out = emit::emit(Unit, P, options());
  REQUIRE(!Out);
  std::string Message = llvm::toString(Out.takeError());
  CHECK(Message.find("'for' at line 3") != std::string::npos);
  CHECK(Message.find("'task' at line 9") != std::string::npos);
}

TEST_CASE("disabling accepts family and group names and rejects others") {
  auto Families = plan::expandFamilies({"sync", "task"});
  REQUIRE(static_cast<bool>(Families));
  CHECK(Families->count("critical") == 1);
  CHECK(Families->count("taskloop") == 1);
  CHECK(Families->count("parallel") == 0);
  auto Bad = plan::expandFamilies({"atomics"});
  REQUIRE(!Bad);
  CHECK(llvm::toString(Bad.takeError()).find("unknown construct family 'atomics'") != std::string::npos);
}

TEST_CASE("a missing input file is a one-line error") {
  auto R = rewriteFile("/nonexistent/x.c", {}, RewriteOptions{});
  REQUIRE(!R);
  CHECK(llvm::toString(R.takeError()).find("/nonexistent/x.c") != std::string::npos);
}

namespace {
/// The rewritten text of a source written to a temporary file, in native
/// and in --opari2-compatible mode.
struct Rewritten {
  std::string Native, Opari2, Path;
};
Rewritten rewriteBoth(llvm::StringRef Source, llvm::StringRef Extension) {
  llvm::SmallString<128> Path;
  REQUIRE(!llvm::sys::fs::createTemporaryFile("ompp-unit", Extension, Path));
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    REQUIRE(!EC);
    Out << Source;
  }
  Rewritten Result;
  Result.Path = Path.str().str();
  for (bool Opari2 : {false, true}) {
    RewriteOptions Options;
    Options.Opari2Compatible = Opari2;
    auto R = rewriteFile(Path, {"-fopenmp"}, Options);
    REQUIRE(!!R);
    (Opari2 ? Result.Opari2 : Result.Native) = R->Source;
  }
  llvm::sys::fs::remove(Path);
  return Result;
}
} // namespace

TEST_CASE("a region's CTC string names its enclosing function, not in OPARI2 mode") {
  Rewritten R = rewriteBoth("namespace { struct Grid { void step(double *a); }; }\n"
                            "void Grid::step(double *a) {\n"
                            "#pragma omp parallel for\n"
                            "  for (int i = 0; i < 4; ++i) a[i] = i;\n"
                            "}\n"
                            "int main() {\n"
                            "  auto f = [] {\n"
                            "#pragma omp barrier\n"
                            "  };\n"
                            "  f();\n"
                            "#pragma pomp inst begin(phase)\n"
                            "#pragma pomp inst end(phase)\n"
                            "}\n",
                            "cpp");
  CHECK(R.Native.find("*function=Grid::step*") != std::string::npos);
  CHECK(R.Native.find("regionType=barrier*sscl=") != std::string::npos);
  CHECK(R.Native.find(":8:8*function=main**") != std::string::npos); // the lambda's barrier: its function's
  CHECK(R.Native.find("*function=main*userRegionName=phase**") != std::string::npos);
  CHECK(R.Opari2.find("function=") == std::string::npos);
}

TEST_CASE("a lock is named by its init call's argument and line, not in OPARI2 mode") {
  Rewritten R = rewriteBoth("#include <omp.h>\n"
                            "omp_lock_t locks[4];\n"
                            "void setup(void) {\n"
                            "  for (int i = 0; i < 4; ++i)\n"
                            "    omp_init_lock( &locks[ i ] );\n"
                            "}\n",
                            "c");
  CHECK(R.Native.find("(POMP2_Lock_init_site(ompp_region(0), ompp_ctc(0)), POMP2_Init_lock)( &locks[ i ] )") !=
        std::string::npos);
  CHECK(R.Native.find("regionType=lock*sscl=" + R.Path + ":5:5*") != std::string::npos);
  CHECK(R.Native.find("*function=setup*lockName=locks[ i ]**") != std::string::npos);
  CHECK(R.Opari2.find("Lock_init_site") == std::string::npos);
  CHECK(R.Opari2.find("POMP2_Init_lock( &locks[ i ] )") != std::string::npos);
}

TEST_CASE("a combined construct's begin+enter and exit+end are one call each, not in OPARI2 mode") {
  Rewritten R = rewriteBoth("void f(double *a, int n) {\n"
                            "#pragma omp parallel for\n"
                            "  for (int i = 0; i < n; ++i) a[i] = i;\n"
                            "#pragma omp parallel sections\n"
                            "  {\n"
                            "    a[0] = 1;\n"
                            "  }\n"
                            "}\n",
                            "c");
  CHECK(R.Native.find("POMP2_Parallel_begin_for_enter(ompp_region(0), ompp_region(0), ompp_ctc(0));") !=
        std::string::npos);
  CHECK(R.Native.find("POMP2_For_exit_parallel_end(ompp_region(0), ompp_region(0));") != std::string::npos);
  CHECK(R.Native.find("POMP2_Parallel_begin_sections_enter(ompp_region(1), ompp_region(1)") != std::string::npos);
  CHECK(R.Native.find("POMP2_Sections_exit_parallel_end(ompp_region(1), ompp_region(1));") != std::string::npos);
  CHECK(R.Native.find("POMP2_Parallel_begin(") == std::string::npos);
  CHECK(R.Native.find("POMP2_Parallel_end(") == std::string::npos);
  CHECK(R.Opari2.find("_parallel_end(") == std::string::npos);
  CHECK(R.Opari2.find("POMP2_Parallel_begin(") != std::string::npos);
}

namespace {
model::Clause clause(llvm::omp::Clause Kind, std::string Text, std::vector<std::string> Vars,
                     std::string ListPrefix = "") {
  model::Clause C;
  C.Kind = Kind;
  C.Text = std::move(Text);
  C.Vars = std::move(Vars);
  C.ListPrefix = std::move(ListPrefix);
  return C;
}
} // namespace

TEST_CASE("every clause a split combined construct accepts has a place in the table") {
  using namespace llvm::omp;
  const std::pair<Directive, Directive> Combined[] = {
      {OMPD_parallel_for, OMPD_for},       {OMPD_parallel_for_simd, OMPD_for_simd},
      {OMPD_parallel_sections, OMPD_sections}, {OMPD_parallel_loop, OMPD_loop},
      {OMPD_parallel_master, OMPD_master}, {OMPD_parallel_masked, OMPD_masked},
  };
  for (const auto &[Whole, Inner] : Combined)
    for (unsigned K = 0; K < Clause_enumSize; ++K) {
      auto Kind = static_cast<Clause>(K);
      if (!isAllowedClauseForDirective(Whole, Kind, 51))
        continue;
      // allocate needs a privatising clause with the same item.
      model::Directive D;
      model::Clause C = clause(Kind, getOpenMPClauseName(Kind).str() + "(x)", {"x"});
      D.Clauses = {clause(OMPC_private, "private(x)", {"x"}), C};
      plan::CombinedSplit Split = plan::splitCombinedClauses(D, Inner);
      INFO(getOpenMPDirectiveName(Whole).str() << ": " << C.Text << " " << Split.KeepWhole);
      CHECK(Split.KeepWhole.empty());
      CHECK(Split.Parallel.Text.size() + Split.Inner.Text.size() >= 2);
    }
}

TEST_CASE("allocate is split between the leaves that privatise its items") {
  using namespace llvm::omp;
  model::Directive D;
  D.Clauses = {clause(OMPC_private, "private(x)", {"x"}),
               clause(OMPC_lastprivate, "lastprivate(y)", {"y"}),
               clause(OMPC_allocate, "allocate(a: x, y)", {"x", "y"}, "a: ")};
  plan::CombinedSplit Split = plan::splitCombinedClauses(D, OMPD_for);
  CHECK(Split.Parallel.Text == std::vector<std::string>{"private(x)", "allocate(a: x)"});
  CHECK(Split.Inner.Text == std::vector<std::string>{"lastprivate(y)", "allocate(a: y)"});
  CHECK(Split.MovedInward == std::vector<std::string>{"y"});
}

TEST_CASE("ompp's file-scope definitions go before the outermost declarative scope, not inside it") {
  // `declare target(list)` inside opens no scope of its own; the nested
  // `begin assumes` closes before the outer scope does.
  Rewritten R = rewriteBoth("int x;\n"
                            "#pragma omp begin declare target\n"
                            "#pragma omp declare target(x)\n"
                            "#pragma omp begin assumes no_openmp_routines\n"
                            "static void g(void) {}\n"
                            "#pragma omp end assumes\n"
                            "void f(int *a) {\n"
                            "#pragma omp parallel\n"
                            "  a[0] = x;\n"
                            "}\n"
                            "#pragma omp end declare target\n",
                            "c");
  for (const std::string *Text : {&R.Native, &R.Opari2}) {
    const auto Definitions = Text->find("static POMP2_Region_handle ompp_regions[");
    REQUIRE(Definitions != std::string::npos);
    CHECK(Definitions < Text->find("#pragma omp begin declare target"));
    CHECK(Text->find("#include <pomp2/") < Text->find("#pragma omp begin declare target"));
  }
  // Where no scope holds the first instrumented declaration, the
  // definitions stay right before it.
  R = rewriteBoth("#pragma omp declare target\n"
                  "static int y;\n"
                  "#pragma omp end declare target\n"
                  "void f(int *a) {\n"
                  "#pragma omp parallel\n"
                  "  a[0] = y;\n"
                  "}\n",
                  "c");
  CHECK(R.Native.find("#include <pomp2/") > R.Native.find("#pragma omp end declare target"));
}
