//===--- Handlers.cpp - one handler per OpenMP construct family -----------===//
//
// Every handler emits exactly OPARI2's POMP2 call sequence and task-handle
// protocol for its construct (opari2-reference.md §2-3), or the analogous
// sequence of <pomp2/pomp2_ompp.h> for constructs OPARI2 does not know.
// docs/instrumenter.md shows each transformation.
//
//===----------------------------------------------------------------------===//
#include "plan/ClausePlacement.h"
#include "plan/Context.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

namespace ompp::instrument::plan {

using model::Clause;
using model::Construct;
using model::Directive;
using namespace clang;
using namespace llvm::omp;

namespace {

std::string H(unsigned N) { return Context::handle(N); }
std::string C(unsigned N) { return Context::ctc(N); }
/// The task handle saved around construct N's scheduling point (OPARI2's
/// pomp2_old_task), and the new task's handle (pomp2_new_task).
std::string OldTask(unsigned N) { return Context::local("pomp2_old_task", N); }
std::string NewTask(unsigned N) { return Context::local("pomp2_new_task", N); }

/// The team size POMP2_Parallel_fork reports: OPARI2 calls <omp.h>; ompp's
/// own output asks libompp, so the rewritten file needs no system header.
std::string maxThreads(const Context &Ctx) {
  return Ctx.Options.Opari2Compatible ? "omp_get_max_threads()" : "POMP2_Lib_get_max_threads()";
}

/// The implicit barrier of a worksharing construct, made explicit (after
/// `nowait`) so that its waiting time is measured separately: the same number
/// of barriers as the construct as written.  A parallel region's end gets one
/// only under --opari2-compatible (OPARI2 adds it); otherwise each thread's
/// wait in the runtime's own join barrier is computed at the join from the
/// team's arrivals (docs/instrumenter.md, "No added synchronisation").
/// Its task handle has a name of its own: the barrier at the end of a
/// parallel region lies inside the fork's block of the same region.
std::string implicitBarrier(unsigned N) {
  const std::string Saved = Context::local("pomp2_barrier_task", N);
  return "{ POMP2_Task_handle " + Saved + ";\nPOMP2_Implicit_barrier_enter(" + H(N) + ", &" + Saved +
         ");\n#pragma omp barrier\nPOMP2_Implicit_barrier_exit(" + H(N) + ", " + Saved + "); }\n";
}

/// "#pragma omp <Name> <Clauses><Extra>".
std::string pragmaLine(llvm::StringRef Name, const std::vector<std::string> &Clauses,
                       llvm::StringRef Extra = "") {
  std::string Text = "#pragma omp " + Name.str();
  for (const std::string &Clause : Clauses)
    Text += " " + Clause;
  return Text + Extra.str();
}

/// "#pragma omp <Name> <clauses that Keep accepts><Extra>", clauses as spelled.
std::string pragmaText(llvm::StringRef Name, const Directive &D,
                       const std::function<bool(const Clause &)> &Keep, llvm::StringRef Extra = "") {
  std::vector<std::string> Kept;
  for (const Clause &Cl : D.Clauses)
    if (Keep(Cl))
      Kept.push_back(Cl.Text);
  return pragmaLine(Name, Kept, Extra);
}

bool all(const Clause &) { return true; }

/// A structured block is needed for begin/end events inside the construct.
bool needBlock(const Directive &D, Context &Ctx) {
  if (D.Block)
    return true;
  Ctx.warn(D.Line, "not instrumented: the structured block of " + Ctx.where(D) +
                       " lies inside a macro expansion");
  return false;
}

/// Adds `nowait` to a worksharing construct when possible, so that its
/// implicit barrier can be measured as POMP2_Implicit_barrier_*.
bool splitOffImplicitBarrier(size_t I, const Directive &D, Context &Ctx) {
  if (D.has(OMPC_nowait) || Ctx.mayBeCancelled(I) || llvm::any_of(D.Clauses, isTaskReduction))
    return false;
  if (!D.Pragma) {
    Ctx.note(D.Line, "the implicit barrier of " + Ctx.where(D) +
                         " is measured as part of the construct (its pragma comes from a macro)");
    return false;
  }
  Ctx.replacePragma(D, pragmaText(D.Name, D, all, " nowait"));
  return true;
}

struct RawToken {
  tok::TokenKind Kind;
  unsigned Offset;    ///< in the unit's text
  bool AtLineStart;
};

/// The tokens of Text[Begin, End) as Clang's raw lexer sees them: comments
/// and line continuations are white space, a literal is one token.
std::vector<RawToken> rawTokens(llvm::StringRef Text, unsigned Begin, unsigned End, bool CPlusPlus) {
  const std::string Slice = Text.slice(Begin, End).str(); // the lexer needs a NUL at the end
  LangOptions Lang;
  Lang.CPlusPlus = CPlusPlus;
  Lexer Raw(SourceLocation(), Lang, Slice.data(), Slice.data(), Slice.data() + Slice.size());
  std::vector<RawToken> Tokens;
  for (Token T; Raw.LexFromRawLexer(T), T.isNot(tok::eof);) // the offset: just past the token, less its length
    Tokens.push_back({T.getKind(), Begin + Raw.getCurrentBufferOffset() - T.getLength(), T.isAtStartOfLine()});
  return Tokens;
}

/// Whether the frame of parallel region P may hold a variable that a task
/// created in worksharing construct D still uses after D: a private copy made
/// by P's clauses, or a declaration in P's block before D (any statement
/// ending in `;` outside brackets; directive lines and the constructs of D's
/// siblings aside).  GCC keeps the implicit barrier then (omp-expand's
/// remove_exit_barrier looks for addressable locals): the join barrier comes
/// after the frame is gone.
bool regionFrameMayHoldVariables(const Directive &P, const Directive &D, const Context &Ctx) {
  for (const Clause &Cl : P.Clauses)
    if (Cl.Kind == OMPC_private || Cl.Kind == OMPC_firstprivate || Cl.Kind == OMPC_reduction ||
        Cl.Kind == OMPC_allocate)
      return true;
  if (P.Block->Begin >= D.Whole->Begin) // `parallel` directly followed by D
    return false;
  if (Ctx.Unit.Text[P.Block->Begin] != '{') // D inside another statement: `if (c) {...}`
    return true;
  std::vector<model::Span> Siblings;
  for (const Directive &S : Ctx.Unit.Directives)
    if (S.Parent == D.Parent && S.Whole && S.Whole->Begin > P.Block->Begin && S.Whole->End <= D.Whole->Begin)
      Siblings.push_back(*S.Whole);
  int Depth = 0;
  bool InDirective = false;
  for (const RawToken &T : rawTokens(Ctx.Unit.Text, P.Block->Begin + 1, D.Whole->Begin, Ctx.Unit.CPlusPlus)) {
    if (T.AtLineStart)
      InDirective = T.Kind == tok::hash;
    if (InDirective || llvm::any_of(Siblings, [&](const model::Span &S) { return S.contains(T.Offset); }))
      continue;
    if (T.Kind == tok::l_paren || T.Kind == tok::l_brace || T.Kind == tok::l_square)
      ++Depth;
    else if (T.Kind == tok::r_paren || T.Kind == tok::r_brace || T.Kind == tok::r_square)
      --Depth;
    else if (T.Kind == tok::semi && Depth == 0)
      return true;
  }
  return false;
}

/// Whether worksharing construct D is the last statement of the `parallel`
/// region directly around it (only white space and comments lie between its
/// end and the end of the region's structured block), and the region's frame
/// holds nothing D's tasks could still use once the thread leaves the block.
bool endsParallelRegion(const Directive &D, const Context &Ctx) {
  if (D.Parent < 0 || !D.Whole)
    return false;
  const Directive &P = Ctx.Unit.Directives[D.Parent];
  if (P.Kind != Construct::Parallel || !P.Block || P.Block->End < D.Whole->End ||
      regionFrameMayHoldVariables(P, D, Ctx))
    return false;
  std::vector<RawToken> Rest = rawTokens(Ctx.Unit.Text, D.Whole->End, P.Block->End, Ctx.Unit.CPlusPlus);
  return Rest.empty() || (Rest.size() == 1 && Rest[0].Kind == tok::r_brace);
}

void planParallel(size_t I, const Directive &D, Context &Ctx) {
  if (!needBlock(D, Ctx))
    return;
  unsigned N = Ctx.region(I, "parallel");
  // OPARI2 adds a barrier at the end (--opari2-compatible), except between
  // `#pragma pomp noinstrument` and `instrument`, where it keeps only
  // fork/begin/end/join (thread management needs them).  A region that may
  // be cancelled keeps only its own join: a thread that cancels jumps to it,
  // and a barrier of ours would wait for that thread forever (libgomp).
  bool Barrier = Ctx.Options.Opari2Compatible && !Ctx.inNoInstrumentZone(D.Whole->Begin) &&
                 !Ctx.containsCancellation(I);
  Ctx.before(D, "{ POMP2_Task_handle " + OldTask(N) + ";\nPOMP2_Parallel_fork(" + H(N) + ", 1, " +
                    maxThreads(Ctx) + ", &" + OldTask(N) + ", " + C(N) + ");");
  Ctx.blockBegin(D, "{ POMP2_Parallel_begin(" + H(N) + ");");
  Ctx.blockEnd(D, (Barrier ? implicitBarrier(N) : "") + "POMP2_Parallel_end(" + H(N) + "); }");
  Ctx.after(D, "POMP2_Parallel_join(" + H(N) + ", " + OldTask(N) + "); }");
}

struct WorkshareCalls {
  const char *Enter, *Exit;
  // A combined construct's (ompp's extension, pomp2_ompp.h): the team's
  // begin with the construct's enter, its exit with the team's end.
  const char *BeginEnter, *ExitEnd;
};

WorkshareCalls workshareCalls(Construct K) {
  switch (K) {
  case Construct::Sections:
  case Construct::ParallelSections:
    return {"POMP2_Sections_enter", "POMP2_Sections_exit", "POMP2_Parallel_begin_sections_enter",
            "POMP2_Sections_exit_parallel_end"};
  case Construct::Single: return {"POMP2_Single_enter", "POMP2_Single_exit", nullptr, nullptr};
  default:
    return {"POMP2_For_enter", "POMP2_For_exit", "POMP2_Parallel_begin_for_enter", "POMP2_For_exit_parallel_end"};
  }
}

/// OPARI2 passes the sections' own handle to a section's events (a sectT
/// phase of the construct); ompp's native mode gives each section a region
/// of its own (libompp still counts sectT and sectC of the construct).
unsigned sectionHandle(unsigned SectionsN, model::Span Section, Context &Ctx) {
  return Ctx.Options.Opari2Compatible ? SectionsN : Ctx.regionAt(Section, "section");
}

void planImplicitFirstSection(const Directive &D, unsigned N, Context &Ctx) {
  if (!D.ImplicitFirstSection)
    return;
  unsigned S = sectionHandle(N, *D.ImplicitFirstSection, Ctx);
  Ctx.wrapInner(D, *D.ImplicitFirstSection, "{ POMP2_Section_begin(" + H(S) + ", " + C(S) + ");",
                "POMP2_Section_end(" + H(S) + "); }");
}

void planWorksharing(size_t I, const Directive &D, Context &Ctx) {
  bool Compat = Ctx.Options.Opari2Compatible;
  const char *Type = D.Kind == Construct::Sections ? "sections"
                     : D.Kind == Construct::Single ? "single"
                     : D.Kind == Construct::Loop   ? "loop"
                     : D.Kind == Construct::ForSimd && !Compat ? "forsimd"
                                                               : "for";
  unsigned N = Ctx.region(I, Type);
  if (D.Kind == Construct::Sections && D.NumSections)
    Ctx.regionData(N).Keys["numSections"] = std::to_string(D.NumSections);
  // `loop` takes no nowait; single with copyprivate needs its barrier.
  bool Barrier = D.Kind != Construct::Loop &&
                 !(D.Kind == Construct::Single && D.has(OMPC_copyprivate)) &&
                 splitOffImplicitBarrier(I, D, Ctx);
  // GCC leaves out the implicit barrier of a worksharing construct that ends
  // its parallel region (the region's join barrier does its work); so does
  // ompp's output for GCC, and the runtime gives the construct the wait in
  // the join barrier (CTC key implicitBarrier=join).  Clang keeps it.
  std::string BarrierText = Barrier ? implicitBarrier(N) : "";
  if (Barrier && !Compat && endsParallelRegion(D, Ctx)) {
    Ctx.regionData(N).Keys["implicitBarrier"] = "join";
    BarrierText = "\n#if defined(__clang__) || !defined(__GNUC__)\n" + BarrierText + "#endif\n";
  }
  WorkshareCalls Calls = workshareCalls(D.Kind);
  Ctx.before(D, std::string("{ ") + Calls.Enter + "(" + H(N) + ", " + C(N) + ");");
  Ctx.after(D, BarrierText + Calls.Exit + "(" + H(N) + "); }");
  if (D.Kind == Construct::Single && D.Block) {
    Ctx.blockBegin(D, "{ POMP2_Single_begin(" + H(N) + ");");
    Ctx.blockEnd(D, "POMP2_Single_end(" + H(N) + "); }");
  }
  if (D.Kind == Construct::Sections)
    planImplicitFirstSection(D, N, Ctx);
}

void planSection(size_t, const Directive &D, Context &Ctx) {
  auto N = D.Parent >= 0 ? Ctx.regionOf(D.Parent) : std::nullopt;
  if (!N || !needBlock(D, Ctx))
    return;
  unsigned S = sectionHandle(*N, D.Whole ? *D.Whole : *D.Block, Ctx);
  Ctx.blockBegin(D, "{ POMP2_Section_begin(" + H(S) + ", " + C(S) + ");");
  Ctx.blockEnd(D, "POMP2_Section_end(" + H(S) + "); }");
}

void planMaster(size_t I, const Directive &D, Context &Ctx) {
  if (!needBlock(D, Ctx))
    return;
  bool Masked = D.Kind == Construct::Masked;
  unsigned N = Ctx.region(I, Masked ? "masked" : "master");
  const char *Begin = Masked ? "POMP2_Masked_begin" : "POMP2_Master_begin";
  const char *End = Masked ? "POMP2_Masked_end" : "POMP2_Master_end";
  Ctx.blockBegin(D, std::string("{ ") + Begin + "(" + H(N) + ", " + C(N) + ");");
  Ctx.blockEnd(D, std::string(End) + "(" + H(N) + "); }");
}

/// critical and ordered: enter/exit outside, begin/end inside the construct.
void planMutex(size_t I, const Directive &D, Context &Ctx) {
  bool Critical = D.Kind == Construct::Critical;
  std::string Kind = Critical ? "Critical" : "Ordered";
  unsigned N = Ctx.region(I, Critical ? "critical" : "ordered");
  Ctx.before(D, "{ POMP2_" + Kind + "_enter(" + H(N) + ", " + C(N) + ");");
  Ctx.after(D, "POMP2_" + Kind + "_exit(" + H(N) + "); }");
  if (needBlock(D, Ctx)) {
    Ctx.blockBegin(D, "{ POMP2_" + Kind + "_begin(" + H(N) + ");");
    Ctx.blockEnd(D, "POMP2_" + Kind + "_end(" + H(N) + "); }");
  }
}

/// Constructs measured by one enter/exit pair around them: atomic, flush,
/// doacross ordered, cancel, cancellation point.  Atomic and flush take less
/// time than a clock read resolves: by default ompp's output counts them with
/// one call (CTC key timing=count, which the report names) and reads no clock.
void planEnterExit(size_t I, const Directive &D, Context &Ctx) {
  struct Shape {
    Construct Kind;
    const char *Type, *Calls;
    bool Trivial;
  };
  static const Shape Shapes[] = {
      {Construct::Atomic, "atomic", "Atomic", true},
      {Construct::Flush, "flush", "Flush", true},
      {Construct::OrderedDepend, "ordereddepend", "Ordered", false},
      {Construct::Cancel, "cancel", "Cancel", false},
      {Construct::CancellationPoint, "cancellationpoint", "Cancellation_point", false},
  };
  const Shape *S = llvm::find_if(Shapes, [&](const Shape &X) { return X.Kind == D.Kind; });
  unsigned N = Ctx.region(I, S->Type);
  if (S->Trivial && !Ctx.Options.Opari2Compatible && !Ctx.Options.TimeTrivial) {
    Ctx.regionData(N).Keys["timing"] = "count";
    // The braces keep the count and the construct one statement (the body
    // of an unbraced if or loop).
    Ctx.before(D, std::string("{ POMP2_") + S->Calls + "_count(" + H(N) + ", " + C(N) + ");");
    Ctx.after(D, "}");
    return;
  }
  Ctx.before(D, std::string("{ POMP2_") + S->Calls + "_enter(" + H(N) + ", " + C(N) + ");");
  Ctx.after(D, std::string("POMP2_") + S->Calls + "_exit(" + H(N) + "); }");
}

/// The test before the end call of a task creation or taskwait in ompp's
/// output: libompp counted an untimed one at its begin, and its end would
/// have nothing to do (POMP2_UNTIMED_DONE, pomp2_ompp.h).
std::string unlessUntimedDone(unsigned N) { return "if (!POMP2_UNTIMED_DONE(" + OldTask(N) + ")) "; }

/// Scheduling points: the task handle is saved and restored around them.
void planSchedulingPoint(size_t I, const Directive &D, Context &Ctx) {
  struct Shape {
    Construct Kind;
    const char *Type, *Begin, *End;
  };
  static const Shape Shapes[] = {
      {Construct::Barrier, "barrier", "Barrier_enter", "Barrier_exit"},
      {Construct::Taskwait, "taskwait", "Taskwait_begin", "Taskwait_end"},
      {Construct::Taskyield, "taskyield", "Taskyield_begin", "Taskyield_end"},
  };
  const Shape *S = llvm::find_if(Shapes, [&](const Shape &X) { return X.Kind == D.Kind; });
  unsigned N = Ctx.region(I, S->Type);
  // libompp counts a taskwait with nothing to wait for at its begin, and
  // ompp's output counts the next ones itself (POMP2_Taskwait_begin_fast,
  // its slot the construct's number).
  bool Untimed = D.Kind == Construct::Taskwait && !Ctx.Options.Opari2Compatible;
  std::string Begin = Untimed ? "POMP2_Taskwait_begin_fast(" + H(N) + ", &" + OldTask(N) + ", " + C(N) + ", " +
                                    std::to_string(N) + ");"
                              : std::string("POMP2_") + S->Begin + "(" + H(N) + ", &" + OldTask(N) + ", " + C(N) + ");";
  Ctx.before(D, "{ POMP2_Task_handle " + OldTask(N) + ";\n" + Begin);
  std::string Needed = Untimed ? unlessUntimedDone(N) : "";
  Ctx.after(D, Needed + "POMP2_" + S->End + "(" + H(N) + ", " + OldTask(N) + "); }");
}

void planTaskgroup(size_t I, const Directive &D, Context &Ctx) {
  unsigned N = Ctx.region(I, "taskgroup");
  Ctx.before(D, "{ POMP2_Task_handle " + OldTask(N) + ";\nPOMP2_Taskgroup_enter(" + H(N) + ", &" + OldTask(N) +
                    ", " + C(N) + ");");
  Ctx.after(D, "POMP2_Taskgroup_exit(" + H(N) + ", " + OldTask(N) + "); }");
  if (needBlock(D, Ctx)) {
    Ctx.blockBegin(D, "{ POMP2_Taskgroup_begin(" + H(N) + ");");
    Ctx.blockEnd(D, "POMP2_Taskgroup_end(" + H(N) + "); }");
  }
}

void planTask(size_t I, const Directive &D, Context &Ctx) {
  if (!needBlock(D, Ctx))
    return;
  bool Untied = D.has(OMPC_untied);
  bool KeepUntied = Untied && (Ctx.Options.KeepUntied || !D.Pragma);
  unsigned N = Ctx.region(I, "task");
  if (Untied && !KeepUntied)
    Ctx.note(D.Line, "untied task made tied (keep it untied with --omp-task-untied=keep)");
  else if (Untied && !Ctx.Options.KeepUntied)
    Ctx.note(D.Line, "untied task left untied: its pragma comes from a macro");
  // The new task's id reaches the task body by value: firstprivate.  Without
  // an editable pragma the implicit firstprivate rule of task does it, unless
  // a default clause overrides that rule.
  //
  // ompp's own output evaluates the if and final clauses once, before the
  // creation event, passes them to it and gives the construct the values
  // (OPARI2 does so with pomp2_if; ompp's variables are pomp2_if_N,
  // pomp2_final_N): a task they make undeferred or included
  // is then counted without a clock (POMP2_Task_create_begin_final).
  bool PassClauses = D.Pragma && !Ctx.Options.Opari2Compatible;
  std::string ClauseValues;
  const std::string IfValue = Context::local("pomp2_if", N), FinalValue = Context::local("pomp2_final", N);
  auto passed = [&](const Clause &Cl, const std::string &Variable) {
    llvm::StringRef Argument = Cl.Argument;
    std::string Modifier;
    if (Cl.NameModifier != OMPD_unknown) { // if(task: <expression>)
      auto [Name, Expression] = Argument.split(':');
      Modifier = Name.trim().str() + ": ";
      Argument = Expression;
    }
    ClauseValues += "\nint " + Variable + " = !!(" + Argument.trim().str() + ");";
    return getOpenMPClauseName(Cl.Kind).str() + "(" + Modifier + Variable + ")";
  };
  bool BodyEvents = true;
  if (D.Pragma) {
    std::vector<std::string> Kept;
    for (const Clause &Cl : D.Clauses) {
      if (Cl.Kind == OMPC_untied && !KeepUntied)
        continue;
      if (PassClauses && Cl.Kind == OMPC_if)
        Kept.push_back(passed(Cl, IfValue));
      else if (PassClauses && Cl.Kind == OMPC_final)
        Kept.push_back(passed(Cl, FinalValue));
      else
        Kept.push_back(Cl.Text);
    }
    Ctx.replacePragma(D, pragmaLine("task", Kept, " firstprivate(" + NewTask(N) + ")"));
  } else if (D.has(OMPC_default)) {
    BodyEvents = false;
    Ctx.warn(D.Line, "task at line " + std::to_string(D.Line) +
                         ": only its creation is measured (pragma from a macro with a default "
                         "clause)");
  }
  std::string Prefix = KeepUntied ? "POMP2_Untied_task" : "POMP2_Task";
  const std::string Handles = "&" + NewTask(N) + ", &" + OldTask(N) + ", ";
  std::string Open = "{ POMP2_Task_handle " + OldTask(N) + ";\nPOMP2_Task_handle " + NewTask(N) + ";" +
                     ClauseValues + "\n";
  // ompp's output counts an untimed task inline when libompp's cache allows
  // (POMP2_Task_create_begin_fast, its slot the construct's number).
  if (PassClauses)
    Open += "POMP2_Task_create_begin_fast(" + H(N) + ", " + Handles + (D.has(OMPC_if) ? IfValue : "1") + ", " +
            (D.has(OMPC_final) ? FinalValue : "0") + ", " + C(N) + ", " + std::to_string(N) + ");";
  else
    Open += Prefix + "_create_begin(" + H(N) + ", " + Handles + "1, " + C(N) + ");";
  Ctx.before(D, Open);
  // A task counted at its creation has an end with nothing to do, unless it
  // is the outermost final one, and a deferred task's creation is closed
  // inline while nothing else happened since its begin: both in
  // POMP2_Task_create_end_fast.  An untied one keeps the call: it may have
  // moved to another thread, where the end resumes it.
  if (PassClauses && !KeepUntied)
    Ctx.after(D, "POMP2_Task_create_end_fast(" + H(N) + ", " + OldTask(N) + "); }");
  else
    Ctx.after(D, Prefix + "_create_end(" + H(N) + ", " + OldTask(N) + "); }");
  if (BodyEvents) {
    // A task counted at its creation (POMP2_UNTIMED_TASK) has no events of
    // its own: tested here, not in a call.
    std::string Measured = PassClauses ? "if (" + NewTask(N) + " != POMP2_UNTIMED_TASK) " : "";
    Ctx.blockBegin(D, "{ " + Measured + Prefix + "_begin(" + H(N) + ", " + NewTask(N) + ");");
    Ctx.blockEnd(D, Measured + Prefix + "_end(" + H(N) + "); }");
  }
}

void planTaskloop(size_t I, const Directive &D, Context &Ctx) {
  unsigned N = Ctx.region(I, "taskloop");
  // Tasks of a taskloop are created inside the OpenMP runtime.  In C++ a
  // firstprivate guard object is copied into every generated task; its first
  // use in the loop body begins the task, its destructor ends it.
  bool Guard = Ctx.Unit.CPlusPlus && D.Pragma && D.LoopBody;
  std::string Open = "{ POMP2_Task_handle " + OldTask(N) + ";\nPOMP2_Taskloop_enter(" + H(N) + ", &" + OldTask(N) +
                     ", " + C(N) + ");";
  if (Guard) {
    Ctx.plan().NeedsTaskloopGuard = true;
    const std::string GuardObject = Context::local("ompp_taskloop_guard", N);
    Open += "\nompp_taskloop_task_guard " + GuardObject + "(" + H(N) + ");";
    Ctx.replacePragma(D, pragmaText(D.Name, D, all, " firstprivate(" + GuardObject + ")"));
    Ctx.wrapInner(D, *D.LoopBody, "{ " + GuardObject + ".begin_task();", "}");
  } else {
    Ctx.note(D.Line, "the tasks of " + Ctx.where(D) + " are not measured individually (" +
                         (Ctx.Unit.CPlusPlus ? "pragma or loop body inside a macro"
                                             : "needs C++") +
                         ")");
  }
  Ctx.before(D, Open);
  Ctx.after(D, "POMP2_Taskloop_exit(" + H(N) + ", " + OldTask(N) + "); }");
}

/// Combined parallel constructs are split (as OPARI2 does) into `parallel`
/// and the inner construct, so that every thread reports Parallel_begin
/// before the inner construct starts.  Clauses go where OpenMP's rules for
/// combined constructs put them (plan/ClausePlacement.cpp); with a default
/// clause other than shared, what the inner leaf alone privatises is named
/// shared on the parallel, as the rules say.
void planCombinedParallel(size_t I, const Directive &D, Context &Ctx) {
  if (!needBlock(D, Ctx))
    return;
  if (!D.Pragma) {
    Ctx.warn(D.Line, "not instrumented: " + Ctx.where(D) +
                         " comes from a macro and cannot be split into parallel + inner construct");
    return;
  }
  bool Compat = Ctx.Options.Opari2Compatible;
  OpenMPDirectiveKind InnerKind = OMPD_masked;
  const char *Type = "parallelmasked";
  switch (D.Kind) {
  case Construct::ParallelFor: InnerKind = OMPD_for; Type = "parallelfor"; break;
  case Construct::ParallelForSimd: InnerKind = OMPD_for_simd; Type = Compat ? "parallelfor" : "parallelforsimd"; break;
  case Construct::ParallelLoop: InnerKind = OMPD_loop; Type = "parallel"; break;
  case Construct::ParallelSections: InnerKind = OMPD_sections; Type = "parallelsections"; break;
  case Construct::ParallelMaster: InnerKind = OMPD_master; Type = "parallelmaster"; break;
  default: break;
  }
  CombinedSplit Split = splitCombinedClauses(D, InnerKind);
  if (!Split.KeepWhole.empty()) {
    Ctx.warn(D.Line, "not instrumented: " + Ctx.where(D) + " is not split into parallel + '" +
                         getOpenMPDirectiveName(InnerKind).str() + "': " + Split.KeepWhole);
    return;
  }
  const Clause *Default = D.find(OMPC_default);
  if (Default && llvm::StringRef(Default->Argument).trim() != "shared" && !Split.MovedInward.empty())
    Split.Parallel.Text.push_back("shared(" + llvm::join(Split.MovedInward, ", ") + ")");

  unsigned N = Ctx.region(I, Type);
  unsigned InnerN = N;
  if (D.Kind == Construct::ParallelLoop)
    InnerN = Ctx.region(I, "loop");
  // Between `#pragma pomp noinstrument` and `instrument` only the parallel
  // part is measured (fork/begin/end/join), as OPARI2 does.
  bool FullyMeasured = !Ctx.inNoInstrumentZone(D.Whole->Begin);
  bool Worksharing = InnerKind != OMPD_master && InnerKind != OMPD_masked;
  // The inner construct takes `nowait`: the region's join barrier follows
  // at once, so the combined construct keeps one barrier (lastprivate and
  // reduction results are complete after it).  `loop` takes no nowait, nor
  // does a construct that is cancellable or carries a task reduction: their
  // barrier stays implicit.  OPARI2 makes the barrier explicit instead.
  bool Nowait = (FullyMeasured || !Compat) && Worksharing && InnerKind != OMPD_loop &&
                !Split.Inner.TaskReduction && !Ctx.containsCancellation(I);
  bool ExplicitBarrier = Compat && FullyMeasured;
  WorkshareCalls Calls = workshareCalls(D.Kind);
  // Nothing of the program runs between the team's begin and the inner
  // construct's enter, nor between its exit and the team's end: ompp's
  // output makes each pair one call, at one clock read.
  bool Fused = FullyMeasured && Worksharing && !Compat;
  std::string Text = pragmaLine("parallel", Split.Parallel.Text) + "\n{ ";
  if (Fused)
    Text += std::string("{ ") + Calls.BeginEnter + "(" + H(N) + ", " + H(InnerN) + ", " + C(InnerN) + ");\n";
  else
    Text += "POMP2_Parallel_begin(" + H(N) + ");\n";
  if (FullyMeasured && Worksharing && !Fused)
    Text += std::string("{ ") + Calls.Enter + "(" + H(InnerN) + ", " + C(InnerN) + ");\n";
  Text += pragmaLine(getOpenMPDirectiveName(InnerKind), Split.Inner.Text, Nowait ? " nowait" : "");
  // Where Clang must see the construct as written, the split is for the
  // other compilers only (inscan reductions: the split is the loop's only).
  std::string Open = "{ POMP2_Task_handle " + OldTask(N) + ";\nPOMP2_Parallel_fork(" + H(N) + ", 1, " +
                     maxThreads(Ctx) + ", &" + OldTask(N) + ", " + C(N) + ");";
  std::string NotClang, Otherwise, EndNotClang;
  if (!Split.WholeForClang.empty()) {
    Ctx.note(D.Line, Ctx.where(D) + " is split for compilers other than Clang; Clang gets it as "
                                    "written, unmeasured: " + Split.WholeForClang);
    NotClang = "#ifndef __clang__\n";
    Otherwise = "\n#else\n" + Ctx.Unit.Text.substr(D.Pragma->Begin, D.Pragma->End - D.Pragma->Begin) +
                "\n#endif";
    EndNotClang = "\n#endif";
  }
  Ctx.before(D, NotClang + Open);
  Ctx.replacePragma(D, Text + Otherwise);
  std::string Close;
  if (Fused)
    Close = std::string(Calls.ExitEnd) + "(" + H(InnerN) + ", " + H(N) + "); } }";
  else if (FullyMeasured && Worksharing)
    Close = std::string(Nowait && ExplicitBarrier ? implicitBarrier(InnerN) : "") + Calls.Exit + "(" +
            H(InnerN) + "); }\n";
  else if (FullyMeasured) {
    Ctx.blockBegin(D, "{ POMP2_Masked_begin(" + H(N) + ", " + C(N) + ");");
    Ctx.blockEnd(D, "POMP2_Masked_end(" + H(N) + "); }");
    Close = ExplicitBarrier && !Ctx.containsCancellation(I) ? implicitBarrier(N) : "";
  }
  if (!Fused)
    Close += "POMP2_Parallel_end(" + H(N) + "); }";
  Ctx.after(D, NotClang + Close + "\nPOMP2_Parallel_join(" + H(N) + ", " + OldTask(N) + "); }" + EndNotClang);
  if (FullyMeasured && D.Kind == Construct::ParallelSections)
    planImplicitFirstSection(D, N, Ctx);
}

const HandlerEntry Table[] = {
    {Construct::Parallel, "parallel", false, planParallel},
    {Construct::For, "for", false, planWorksharing},
    {Construct::ForSimd, "for", false, planWorksharing},
    {Construct::Loop, "loop", true, planWorksharing},
    {Construct::Sections, "sections", false, planWorksharing},
    {Construct::Section, "sections", false, planSection},
    {Construct::Single, "single", false, planWorksharing},
    {Construct::Master, "master", false, planMaster},
    {Construct::Masked, "masked", true, planMaster},
    {Construct::Critical, "critical", false, planMutex},
    {Construct::Ordered, "ordered", false, planMutex},
    {Construct::OrderedDepend, "ordered", true, planEnterExit},
    {Construct::Atomic, "atomic", false, planEnterExit},
    {Construct::Flush, "flush", false, planEnterExit},
    {Construct::Cancel, "cancel", true, planEnterExit},
    {Construct::CancellationPoint, "cancel", true, planEnterExit},
    {Construct::Barrier, "barrier", false, planSchedulingPoint},
    {Construct::Taskwait, "taskwait", false, planSchedulingPoint},
    {Construct::Taskyield, "taskyield", true, planSchedulingPoint},
    {Construct::Taskgroup, "taskgroup", true, planTaskgroup},
    {Construct::Task, "task", false, planTask},
    {Construct::Taskloop, "taskloop", true, planTaskloop},
    {Construct::ParallelFor, "parallel", false, planCombinedParallel},
    {Construct::ParallelForSimd, "parallel", false, planCombinedParallel},
    {Construct::ParallelLoop, "parallel", true, planCombinedParallel},
    {Construct::ParallelSections, "parallel", false, planCombinedParallel},
    {Construct::ParallelMaster, "parallel", true, planCombinedParallel},
    {Construct::ParallelMasked, "parallel", true, planCombinedParallel},
};

} // namespace

llvm::ArrayRef<HandlerEntry> handlerTable() { return Table; }

} // namespace ompp::instrument::plan
