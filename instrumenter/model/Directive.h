//===--- Directive.h - the directive model of one translation unit -*- C++ -*-===//
//
// What the planner needs to know about the main file, detached from the AST:
// every OpenMP construct (kind, clauses of interest, nesting) with the places
// in the original text where code may be inserted, every OpenMP lock call,
// every `#pragma pomp` and the statement structure the user-region guards
// need.  Places are byte offsets into the main file; a place that lies inside
// a macro expansion is absent (std::nullopt), so nothing downstream can edit
// across a macro boundary.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_MODEL_DIRECTIVE_H
#define OMPP_INSTRUMENTER_MODEL_DIRECTIVE_H

#include "clang/Basic/OpenMPKinds.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class LangOptions;
class OMPExecutableDirective;
class SourceLocation;
class SourceManager;
} // namespace clang

namespace ompp::instrument::model {

/// Half-open byte range [Begin, End) of the main file.
struct Span {
  unsigned Begin = 0;
  unsigned End = 0;
  bool contains(unsigned Offset) const { return Begin <= Offset && Offset < End; }
};

/// The constructs the planner distinguishes; one handler each (plan/Handlers.cpp).
enum class Construct {
  Parallel, For, ForSimd, Loop, Sections, Section, Single, Master, Masked, Critical, Atomic,
  Flush, Barrier, Ordered, OrderedDepend, Task, Taskwait, Taskgroup, Taskyield, Taskloop, Cancel,
  CancellationPoint, ParallelFor, ParallelForSimd, ParallelLoop, ParallelSections, ParallelMaster,
  ParallelMasked,
  Device,      // target / teams / distribute: left alone with a note
  Passive,     // nothing to measure (simd, scan, tile, ...): left alone silently
  Unsupported  // left alone with a warning
};

struct Clause {
  clang::OpenMPClauseKind Kind;
  std::string Text;              // as spelled, e.g. "schedule(dynamic, (n)*2)"
  std::string Argument;          // the text between the outer parentheses
  /// Variables named by the list items, in order: `a` for `a[0:n]`; list
  /// items that are not a variable (C++ members) are left out.
  std::vector<std::string> Vars;
  /// What precedes the list items, e.g. "omp_low_lat_mem_alloc: " in
  /// allocate(omp_low_lat_mem_alloc: x), "+: " in reduction(+: x)
  std::string ListPrefix;
  clang::OpenMPDirectiveKind NameModifier = llvm::omp::OMPD_unknown; // if(<directive>: ...)
  clang::OpenMPReductionClauseModifier ReductionModifier = clang::OMPC_REDUCTION_unknown;
};

struct Directive {
  Construct Kind = Construct::Unsupported;
  clang::OpenMPDirectiveKind DirectiveKind = llvm::omp::OMPD_unknown;
  std::string Name;             // "parallel for"
  int Parent = -1;              // index of the innermost enclosing directive
  unsigned Depth = 0;

  unsigned Line = 0;            // expansion line of the directive's first token (1-based)
  unsigned LineEnd = 0;         // ... and of its last token
  unsigned EndLine = 0;         // line where the construct (structured block) ends
  bool FromMacro = false;       // the directive comes from a macro or _Pragma
  bool FromMetadirective = false; // the variant Clang chose from a `metadirective`

  std::optional<Span> Whole;    // from the pragma to the end of the construct (incl. ';')
  std::optional<Span> Pragma;   // text that may be replaced by a regenerated pragma
  std::optional<Span> Block;    // the structured block (incl. its ';'), editable
  std::optional<Span> LoopBody; // body of the innermost associated loop, editable
  std::optional<Span> ImplicitFirstSection; // sections: first section without its pragma
  unsigned NumSections = 0;

  std::vector<Clause> Clauses;
  std::vector<std::string> LoopCountersDeclaredOutside; // `int i; for (i = 0; ...)`
  std::string CriticalName;
  std::string CancelRegion;
  /// Why Whole is absent, when the reason is not a macro boundary (the
  /// textual front end could not delimit the construct).
  std::string NotEditable;

  const Clause *find(clang::OpenMPClauseKind K) const;
  bool has(clang::OpenMPClauseKind K) const { return find(K) != nullptr; }
};

/// `#pragma pomp inst begin(name)` and friends (grammar: see docs/instrumenter.md).
struct PompPragma {
  enum class Action { Begin, End, Altend, Init, Finalize, On, Off, NoInstrument, Instrument, Unknown };
  Action What;
  std::string RegionName;
  unsigned Line = 0;
  std::optional<Span> Text;     // the pragma's text, replaced by the call
};

/// A reference to an omp_*_lock function, renamed to its POMP2_* wrapper.
struct LockReference {
  Span Name;
  std::string Callee;           // e.g. "omp_set_lock"
};

/// Line and file the compiler reports for a physical line of the main file.
struct PresumedLine {
  unsigned Line;
  std::string File;             // empty: the main file, as named on the command line
};

/// The `#pragma omp` lines of one header the main file includes (not rewritten).
struct HeaderDirectives {
  std::string File;             // as the compiler names it
  unsigned IncludeOffset = 0;   // the main file's #include that brings it in
  unsigned FirstLine = 0, LastLine = 0;
  unsigned Count = 0;
  std::string NotInlined;       // why the rewriter could not inline the header, if it tried
};

/// An `#include` of a user header written in the main file.
struct MainFileInclude {
  Span Directive;               // from '#' to the end of its line (newline excluded)
  std::string Path;             // the header found, as the compiler opened it
  std::string NextFile;         // presumed file (empty: the main file) and line of the line
                                // after the directive
  unsigned NextLine = 0;
};

struct UnitModel {
  std::string Text;             // the main file as read
  bool CPlusPlus = false;
  std::vector<Directive> Directives;
  std::vector<PompPragma> Pomp;
  std::vector<LockReference> Locks;
  std::vector<HeaderDirectives> HeaderPragmas; // user headers only, not system headers
  std::vector<MainFileInclude> Includes;       // user headers only
  std::vector<Span> CompoundStatements;
  std::vector<unsigned> EarlyExits;  // return / goto / throw statements (C region warnings)
  std::vector<Span> TopLevelDecls;   // where the prologue may go
  /// `declare target` ... `end declare target`, `begin declare variant` ...
  /// `end declare variant`, `begin assumes` ... `end assumes` (outermost
  /// only): file-scope code inserted inside would change meaning.
  std::vector<Span> DeclarativeScopes;
  std::vector<std::pair<unsigned, std::string>> Unmappable; // line, construct: cannot be edited
  std::vector<PresumedLine> PresumedLines; // per physical line; empty: no `#line` in the input
  /// Function bodies in the main file with their qualified names
  /// ("Chunk::advance"), in traversal order: an enclosing body comes first.
  std::vector<std::pair<Span, std::string>> FunctionBodies;

  /// Where the innermost top-level declaration holding Offset begins: code
  /// inserted there is at file scope and sees every name that declaration
  /// sees.  None when Offset is in no top-level declaration.
  std::optional<unsigned> topLevelDeclBegin(unsigned Offset) const;
  /// Where file-scope definitions that Offset's code uses go: before the
  /// top-level declaration holding Offset, and before the declarative scope
  /// holding that, whose declarations become device code or variants
  /// (clang-16 rejects the thread-local cache of <pomp2/pomp2_ompp.h> there).
  std::optional<unsigned> fileScopeInsertionPoint(unsigned Offset) const;
  /// The line and file the compiler reports for a physical line of the main
  /// file (File empty: the main file itself).
  PresumedLine presumed(unsigned PhysicalLine) const;
  /// The innermost function whose body holds Offset (a lambda's body counts
  /// as its enclosing function's); empty at file scope.
  std::string functionAt(unsigned Offset) const;
};

/// Builds the model entry of one directive from the AST (parse layer calls this).
Directive buildDirective(const clang::OMPExecutableDirective &D, clang::ASTContext &Ctx);

/// The main-file text a pragma occupies (Begin: its introducer, End: its end
/// of directive): a `#pragma` line (newline excluded), or a `_Pragma(...)`
/// or macro invocation that expands to nothing but the pragma.
std::optional<Span> pragmaSpan(const clang::SourceManager &SM, const clang::LangOptions &LO,
                               clang::SourceLocation Begin, clang::SourceLocation End);

/// Clauses whose arguments are a list of variables (Clause::Vars).
bool listsVariables(clang::OpenMPClauseKind K);

/// The text between the outer parentheses of a clause as spelled.
std::string clauseArgument(const std::string &ClauseText);

/// Classifies a directive kind.
Construct classify(clang::OpenMPDirectiveKind K);

} // namespace ompp::instrument::model

#endif
