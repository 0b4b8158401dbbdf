//===--- Directive.cpp - build the directive model from the AST -----------===//
#include "model/Directive.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprOpenMP.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace ompp::instrument::model {

using namespace clang;
using namespace llvm::omp;

const Clause *Directive::find(OpenMPClauseKind K) const {
  for (const Clause &C : Clauses)
    if (C.Kind == K)
      return &C;
  return nullptr;
}

std::optional<unsigned> UnitModel::topLevelDeclBegin(unsigned Offset) const {
  std::optional<unsigned> Begin;
  for (Span D : TopLevelDecls)
    if (D.contains(Offset))
      Begin = D.Begin;
  return Begin;
}

std::optional<unsigned> UnitModel::fileScopeInsertionPoint(unsigned Offset) const {
  std::optional<unsigned> Begin = topLevelDeclBegin(Offset);
  if (Begin)
    for (Span S : DeclarativeScopes)
      if (S.contains(*Begin))
        return S.Begin;
  return Begin;
}

PresumedLine UnitModel::presumed(unsigned PhysicalLine) const {
  if (PresumedLines.empty() || PhysicalLine == 0 || PhysicalLine > PresumedLines.size())
    return {PhysicalLine, ""};
  return PresumedLines[PhysicalLine - 1];
}

std::string UnitModel::functionAt(unsigned Offset) const {
  // Pre-order: of the bodies holding Offset, the last one is the innermost.
  for (auto It = FunctionBodies.rbegin(); It != FunctionBodies.rend(); ++It)
    if (It->first.contains(Offset))
      return It->second;
  return "";
}

Construct classify(OpenMPDirectiveKind K) {
  switch (K) {
  case OMPD_parallel: return Construct::Parallel;
  case OMPD_for: return Construct::For;
  case OMPD_for_simd: return Construct::ForSimd;
  case OMPD_loop: return Construct::Loop;
  case OMPD_sections: return Construct::Sections;
  case OMPD_section: return Construct::Section;
  case OMPD_single: return Construct::Single;
  case OMPD_master: return Construct::Master;
  case OMPD_masked: return Construct::Masked;
  case OMPD_critical: return Construct::Critical;
  case OMPD_atomic: return Construct::Atomic;
  case OMPD_flush: return Construct::Flush;
  case OMPD_barrier: return Construct::Barrier;
  case OMPD_ordered: return Construct::Ordered; // refined by buildDirective (doacross)
  case OMPD_task: return Construct::Task;
  case OMPD_taskwait: return Construct::Taskwait;
  case OMPD_taskgroup: return Construct::Taskgroup;
  case OMPD_taskyield: return Construct::Taskyield;
  case OMPD_taskloop:
  case OMPD_taskloop_simd: return Construct::Taskloop; // the simd part is kept as is
  case OMPD_cancel: return Construct::Cancel;
  case OMPD_cancellation_point: return Construct::CancellationPoint;
  case OMPD_parallel_for: return Construct::ParallelFor;
  case OMPD_parallel_for_simd: return Construct::ParallelForSimd;
  case OMPD_parallel_loop: return Construct::ParallelLoop;
  case OMPD_parallel_sections: return Construct::ParallelSections;
  case OMPD_parallel_master: return Construct::ParallelMaster;
  case OMPD_parallel_masked: return Construct::ParallelMasked;
  case OMPD_simd:
  case OMPD_scan:
  case OMPD_tile:
  case OMPD_unroll:
  case OMPD_depobj:
  case OMPD_interop:
  case OMPD_error:
  case OMPD_nothing:
    return Construct::Passive;
  default:
    if (isOpenMPTargetExecutionDirective(K) || isOpenMPTargetDataManagementDirective(K) ||
        isOpenMPTeamsDirective(K) || isOpenMPDistributeDirective(K) || K == OMPD_target_data)
      return Construct::Device;
    return Construct::Unsupported;
  }
}

namespace {

const Stmt *trailingStatement(const Stmt *S);
bool endsWithoutSemicolon(const Stmt *S);

/// Maps locations to main-file offsets, refusing anything that would cross a
/// macro boundary (style-anchors: never edit across macro boundaries).
class Locator {
public:
  explicit Locator(ASTContext &Ctx) : SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()) {}

  std::optional<unsigned> offset(SourceLocation L) const {
    if (L.isInvalid() || L.isMacroID() || !SM.isWrittenInMainFile(L))
      return std::nullopt;
    return SM.getFileOffset(L);
  }

  /// The file range of a token range, if it maps onto main-file text.
  std::optional<Span> tokens(SourceLocation B, SourceLocation E) const {
    CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(B, E), SM, LO);
    if (R.isInvalid())
      return std::nullopt;
    auto Begin = offset(R.getBegin());
    auto End = offset(R.getEnd());
    if (!Begin || !End || *End < *Begin)
      return std::nullopt;
    return Span{*Begin, *End};
  }

  /// A statement's text, up to and including the last token of its last
  /// nested statement and the ';' that ends it.
  std::optional<Span> statement(const Stmt *S) const { return through(begin(S), S); }

  /// Where statement S begins: for a directive, where its pragma begins.
  SourceLocation begin(const Stmt *S) const {
    if (const auto *D = dyn_cast<OMPExecutableDirective>(S))
      if (auto Start = metadirectiveStart(*D))
        return SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(*Start);
    return S->getBeginLoc();
  }

  /// The offset of the '#' of the `metadirective` pragma D was chosen from.
  /// Clang replaces a metadirective whose context selectors it can evaluate
  /// by the chosen variant, which then begins at the variant's name in the
  /// middle of the pragma line (`when(user={condition(1)}: parallel)`).
  std::optional<unsigned> metadirectiveStart(const OMPExecutableDirective &D) const {
    auto B = offset(D.getBeginLoc());
    if (!B)
      return std::nullopt;
    StringRef Text = SM.getBufferData(SM.getMainFileID());
    if (Text[*B] == '#' || Text.substr(*B).startswith("_Pragma"))
      return std::nullopt;
    // Back to the start of the logical line (over continued lines).
    unsigned I = *B;
    auto ContinuedLineEnds = [&](unsigned NewLine) {
      unsigned J = NewLine;
      if (J > 0 && Text[J - 1] == '\r')
        --J;
      return J > 0 && Text[J - 1] == '\\';
    };
    while (I > 0 && !(Text[I - 1] == '\n' && !ContinuedLineEnds(I - 1)))
      --I;
    while (I < *B && (Text[I] == ' ' || Text[I] == '\t'))
      ++I;
    if (Text[I] != '#')
      return std::nullopt;
    return I;
  }

  /// From Begin to the end of statement S.  Clang's end location of a
  /// statement is the end of its last sub-statement as Clang records it,
  /// and a directive's is the end of its pragma line: `if (c)` + `#pragma omp
  /// task` + `{...}` "ends" before the task's block.  The end is therefore
  /// taken from the statement that really comes last (trailingStatement).
  std::optional<Span> through(SourceLocation Begin, const Stmt *S) const {
    const Stmt *Last = trailingStatement(S);
    if (const auto *Standalone = dyn_cast<OMPExecutableDirective>(Last)) {
      auto R = tokens(Begin, Standalone->getBeginLoc());
      auto Line = pragmaText(*Standalone);
      if (!R || !Line)
        return std::nullopt;
      return Span{R->Begin, Line->End};
    }
    if (!endsWithoutSemicolon(Last))
      return tokens(Begin, Last->getEndLoc());
    if (auto Semicolon = semicolonEndingMacro(Last->getEndLoc()))
      return tokens(Begin, *Semicolon);
    auto R = tokens(Begin, Last->getEndLoc());
    if (!R)
      return R;
    auto Semicolon = semicolonAfter(R->End);
    if (!Semicolon)
      return std::nullopt; // e.g. the ';' comes from a macro: not editable
    return Span{R->Begin, *Semicolon + 1};
  }

  /// `#define STEP(v) v += 1;` used as `STEP(x)`: the ';' after the last
  /// token of a statement (at End, inside a macro body) that is also the
  /// last token of the macro's expansion.
  std::optional<SourceLocation> semicolonEndingMacro(SourceLocation End) const {
    if (!End.isMacroID() || !SM.isMacroBodyExpansion(End))
      return std::nullopt;
    SourceLocation Spelling = SM.getSpellingLoc(End);
    std::optional<Token> Next = Lexer::findNextToken(Spelling, SM, LO);
    if (!Next || Next->isNot(tok::semi))
      return std::nullopt;
    // Tokens of one macro body keep their distances in the expansion.
    SourceLocation Semicolon = End.getLocWithOffset(
        SM.getFileOffset(Next->getLocation()) - SM.getFileOffset(Spelling));
    if (!Lexer::isAtEndOfMacroExpansion(Semicolon, SM, LO))
      return std::nullopt;
    return Semicolon;
  }

  /// The offset of the ';' that is the next token after Offset (comments
  /// and line continuations skipped), if it is one.
  std::optional<unsigned> semicolonAfter(unsigned Offset) const {
    StringRef Text = SM.getBufferData(SM.getMainFileID());
    Lexer Raw(SM.getLocForStartOfFile(SM.getMainFileID()), LO, Text.begin(),
              Text.begin() + Offset, Text.end());
    Token Next;
    Raw.LexFromRawLexer(Next);
    if (Next.isNot(tok::semi))
      return std::nullopt;
    return offset(Next.getLocation());
  }

  /// Text of a token range as spelled (also for _Pragma and macro text).
  std::string spelled(SourceLocation B, SourceLocation E) const {
    SourceLocation SB = SM.getSpellingLoc(B), SE = SM.getSpellingLoc(E);
    if (SM.getFileID(SB) != SM.getFileID(SE))
      return {};
    bool Invalid = false;
    StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(SB, SE), SM, LO, &Invalid);
    return Invalid ? std::string() : T.str();
  }

  /// A clause as spelled.  Clauses without arguments report the following
  /// token as their end, so the clause is its name alone unless a '('
  /// (after comments and line continuations) follows the name.
  std::string clause(const OMPClause &C) const {
    SourceLocation Name = SM.getSpellingLoc(C.getBeginLoc());
    std::optional<Token> Next = Lexer::findNextToken(Name, SM, LO);
    if (Next && Next->is(tok::l_paren))
      return spelled(C.getBeginLoc(), C.getEndLoc());
    return spelled(C.getBeginLoc(), C.getBeginLoc());
  }

  /// The part of clause C (spelled as Text) after its '(' and before
  /// Before, e.g. the modifier and ':' before its list.
  std::string textBefore(const OMPClause &C, SourceLocation Before, const std::string &Text) const {
    SourceLocation Begin = SM.getSpellingLoc(C.getBeginLoc()), End = SM.getSpellingLoc(Before);
    if (Before.isInvalid() || SM.getFileID(Begin) != SM.getFileID(End) || End < Begin)
      return {};
    size_t Length = SM.getFileOffset(End) - SM.getFileOffset(Begin);
    size_t Open = Text.find('(');
    if (Open == std::string::npos || Length > Text.size() || Length <= Open)
      return {};
    return Text.substr(Open + 1, Length - Open - 1);
  }

  /// The line of L as the compiler reports it (after `#line` directives).
  unsigned expansionLine(SourceLocation L) const {
    return SM.getPresumedLineNumber(SM.getExpansionLoc(L));
  }

  /// The line of a main-file offset as the compiler reports it.
  unsigned lineOf(unsigned Offset) const {
    return SM.getPresumedLineNumber(SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Offset));
  }

  std::optional<Span> pragmaText(const OMPExecutableDirective &D) const {
    return pragmaSpan(SM, LO, D.getBeginLoc(), D.getEndLoc());
  }

private:
  const SourceManager &SM;
  const LangOptions &LO;
};

const Stmt *structuredStatement(const OMPExecutableDirective &D) {
  if (D.isStandaloneDirective() || !D.hasAssociatedStmt())
    return nullptr;
  const Stmt *S = D.getAssociatedStmt();
  while (const auto *CS = dyn_cast_or_null<CapturedStmt>(S))
    S = CS->getCapturedStmt();
  return S;
}

/// The statement whose last token ends S: S itself, or (through if/else,
/// loops, labels, case labels, attributes and OpenMP directives) the
/// sub-statement S ends with.
const Stmt *trailingStatement(const Stmt *S) {
  for (;;) {
    const Stmt *Next = nullptr;
    if (const auto *D = dyn_cast<OMPExecutableDirective>(S))
      Next = structuredStatement(*D);
    else if (const auto *If = dyn_cast<IfStmt>(S))
      Next = If->getElse() ? If->getElse() : If->getThen();
    else if (const auto *For = dyn_cast<ForStmt>(S))
      Next = For->getBody();
    else if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(S))
      Next = RangeFor->getBody();
    else if (const auto *While = dyn_cast<WhileStmt>(S))
      Next = While->getBody();
    else if (const auto *Switch = dyn_cast<SwitchStmt>(S))
      Next = Switch->getBody();
    else if (const auto *Label = dyn_cast<LabelStmt>(S))
      Next = Label->getSubStmt();
    else if (const auto *Case = dyn_cast<SwitchCase>(S))
      Next = Case->getSubStmt();
    else if (const auto *Attributed = dyn_cast<AttributedStmt>(S))
      Next = Attributed->getSubStmt();
    else if (const auto *Captured = dyn_cast<CapturedStmt>(S))
      Next = Captured->getCapturedStmt();
    if (!Next)
      return S;
    S = Next;
  }
}

/// Statements whose source range stops before the ';' that ends them
/// (declarations and null statements include theirs, blocks have none).
bool endsWithoutSemicolon(const Stmt *S) {
  return isa<Expr, DoStmt, BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt,
             AsmStmt, CoreturnStmt>(S);
}

/// The variable a list item names: `a` for `a`, `a[i]` and `a[0:n]`.
std::optional<std::string> variableOf(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Section = dyn_cast<OMPArraySectionExpr>(E))
      E = Section->getBase();
    else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      E = Subscript->getBase();
    else
      break;
  }
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
    if (isa<VarDecl>(Ref->getDecl()))
      return Ref->getDecl()->getNameAsString();
  return std::nullopt;
}

/// Loop counters assigned (not declared) in the init of the associated loops.
std::vector<std::string> countersDeclaredOutside(const Stmt *Loop, unsigned Depth) {
  std::vector<std::string> Names;
  for (unsigned Level = 0; Level < Depth && Loop; ++Level) {
    const auto *For = dyn_cast<ForStmt>(Loop);
    if (!For)
      break;
    if (const auto *Init = dyn_cast_or_null<BinaryOperator>(For->getInit()))
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Init->getLHS()->IgnoreParenImpCasts()))
        Names.push_back(Ref->getDecl()->getNameAsString());
    Loop = For->getBody();
    while (const auto *Block = dyn_cast_or_null<CompoundStmt>(Loop)) {
      if (Block->size() != 1)
        break;
      Loop = Block->body_front();
    }
  }
  return Names;
}

} // namespace

bool listsVariables(OpenMPClauseKind K) {
  switch (K) {
  case OMPC_private: case OMPC_firstprivate: case OMPC_lastprivate: case OMPC_shared:
  case OMPC_linear: case OMPC_reduction: case OMPC_allocate: case OMPC_copyin:
  case OMPC_aligned: case OMPC_nontemporal: case OMPC_copyprivate:
    return true;
  default:
    return false;
  }
}

std::string clauseArgument(const std::string &Text) {
  auto Open = Text.find('('), Close = Text.rfind(')');
  if (Open == std::string::npos || Close == std::string::npos || Close < Open)
    return {};
  return Text.substr(Open + 1, Close - Open - 1);
}

std::optional<Span> pragmaSpan(const SourceManager &SM, const LangOptions &LO, SourceLocation Begin,
                               SourceLocation End) {
  auto Offset = [&](SourceLocation L) -> std::optional<unsigned> {
    if (L.isInvalid() || L.isMacroID() || !SM.isWrittenInMainFile(L))
      return std::nullopt;
    return SM.getFileOffset(L);
  };
  StringRef Text = SM.getBufferData(SM.getMainFileID());
  // `#pragma` line: from '#' to the end of its (last continued) line.
  if (auto Hash = Offset(Begin); Hash && Offset(End)) {
    unsigned E = *Offset(End);
    while (E < Text.size() && Text[E] != '\n')
      ++E;
    return Span{*Hash, E};
  }
  // `_Pragma("...")` written in the file, or a macro expanding to only it:
  // the end of the pragma expands from the same place as its beginning.
  CharSourceRange Last = SM.getExpansionRange(End);
  SourceLocation First = Begin.isMacroID() ? SM.getExpansionRange(Begin).getBegin() : Begin;
  if (First != Last.getBegin())
    return std::nullopt;
  CharSourceRange R = Lexer::makeFileCharRange(Last, SM, LO);
  auto B = Offset(R.getBegin()), E = Offset(R.getEnd());
  if (R.isInvalid() || !B || !E)
    return std::nullopt;
  return Span{*B, *E};
}

Directive buildDirective(const OMPExecutableDirective &D, ASTContext &Ctx) {
  Locator Loc(Ctx);
  Directive M;
  M.DirectiveKind = D.getDirectiveKind();
  M.Kind = classify(M.DirectiveKind);
  M.Name = getOpenMPDirectiveName(M.DirectiveKind).str();
  M.FromMacro = D.getBeginLoc().isMacroID();
  M.Line = Loc.expansionLine(D.getBeginLoc());
  M.LineEnd = Loc.expansionLine(D.getEndLoc());

  for (const OMPClause *C : D.clauses()) {
    if (C->isImplicit() || C->getBeginLoc().isInvalid())
      continue;
    Clause Out;
    Out.Kind = C->getClauseKind();
    Out.Text = Loc.clause(*C);
    Out.Argument = clauseArgument(Out.Text);
    if (const auto *If = dyn_cast<OMPIfClause>(C))
      Out.NameModifier = If->getNameModifier();
    if (const auto *Reduction = dyn_cast<OMPReductionClause>(C))
      Out.ReductionModifier = Reduction->getModifier();
    if (listsVariables(Out.Kind)) {
      auto Items = const_cast<OMPClause *>(C)->children();
      if (!Items.empty() && *Items.begin())
        Out.ListPrefix = Loc.textBefore(*C, (*Items.begin())->getBeginLoc(), Out.Text);
      for (const Stmt *Child : Items)
        if (auto Name = variableOf(dyn_cast_or_null<Expr>(Child)))
          Out.Vars.push_back(std::move(*Name));
    }
    M.Clauses.push_back(std::move(Out));
  }
  if (const auto *Critical = dyn_cast<OMPCriticalDirective>(&D))
    M.CriticalName = Critical->getDirectiveName().getAsString();
  if (const auto *Cancel = dyn_cast<OMPCancelDirective>(&D))
    M.CancelRegion = getOpenMPDirectiveName(Cancel->getCancelRegion()).str();
  if (const auto *Point = dyn_cast<OMPCancellationPointDirective>(&D))
    M.CancelRegion = getOpenMPDirectiveName(Point->getCancelRegion()).str();
  if (M.Kind == Construct::Ordered &&
      (D.isStandaloneDirective() || M.has(OMPC_depend)))
    M.Kind = Construct::OrderedDepend;

  const Stmt *Block = structuredStatement(D);
  M.Pragma = Loc.pragmaText(D);
  if (auto Start = Loc.metadirectiveStart(D)) {
    M.FromMetadirective = true;
    M.Line = Loc.lineOf(*Start);
    M.Pragma = Span{*Start, M.Pragma ? M.Pragma->End : *Start};
  }
  if (Block) {
    M.Block = Loc.statement(Block);
    // A pragma is only replaceable if the statement starts after it (not
    // inside the same macro expansion).
    if (M.Pragma && (!M.Block || M.Block->Begin < M.Pragma->End))
      M.Pragma.reset();
    M.Whole = Loc.through(Loc.begin(&D), Block);
    M.EndLine = M.Whole ? Loc.lineOf(M.Whole->End - 1)
                        : Loc.expansionLine(trailingStatement(Block)->getEndLoc());
  } else {
    M.EndLine = M.LineEnd;
    M.Whole = M.Pragma;
  }

  if (const auto *LoopD = dyn_cast<OMPLoopDirective>(&D)) {
    if (const Stmt *Body = LoopD->getBody())
      M.LoopBody = Loc.statement(Body);
    unsigned Collapse = 1;
    if (const auto *C = LoopD->getSingleClause<OMPCollapseClause>())
      if (auto V = C->getNumForLoops()->getIntegerConstantExpr(Ctx))
        Collapse = V->getZExtValue();
    M.LoopCountersDeclaredOutside = countersDeclaredOutside(Block, Collapse);
  }

  if (M.Kind == Construct::Sections || M.Kind == Construct::ParallelSections) {
    if (const auto *Body = dyn_cast_or_null<CompoundStmt>(Block)) {
      M.NumSections = Body->size();
      if (!Body->body_empty() && !isa<OMPSectionDirective>(Body->body_front())) {
        M.ImplicitFirstSection = Loc.statement(Body->body_front());
        if (!M.ImplicitFirstSection)
          M.NumSections = 0; // unknown: cannot instrument the implicit first section
      }
    }
  }
  return M;
}

} // namespace ompp::instrument::model
