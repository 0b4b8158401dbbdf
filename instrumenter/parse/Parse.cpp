//===--- Parse.cpp - run Clang over one file and collect the model --------===//
#include "parse/Parse.h"
#include "parse/Shared.h"

#include "model/LineTable.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace ompp::instrument::parse {

using namespace clang;
using model::Span;

namespace {

std::optional<unsigned> mainFileOffset(const SourceManager &SM, SourceLocation L) {
  if (L.isInvalid() || L.isMacroID() || !SM.isWrittenInMainFile(L))
    return std::nullopt;
  return SM.getFileOffset(L);
}

/// `#pragma pomp ...` (OPARI2's user instrumentation), see docs/instrumenter.md:
///   pomp inst begin(NAME) | end(NAME) | altend(NAME) | init | finalize | on | off
///   pomp noinstrument | instrument
class PompPragmaHandler : public PragmaHandler {
public:
  explicit PompPragmaHandler(model::UnitModel &Out) : PragmaHandler("pomp"), Out(Out) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &) override {
    std::vector<std::string> Words;
    Token Tok;
    PP.Lex(Tok);
    while (Tok.isNot(tok::eod)) {
      Words.push_back(PP.getSpelling(Tok));
      PP.Lex(Tok);
    }
    const SourceManager &SM = PP.getSourceManager();
    if (!SM.isWrittenInMainFile(SM.getExpansionLoc(Introducer.Loc)))
      return;
    model::PompPragma P;
    P.Line = SM.getPresumedLineNumber(SM.getExpansionLoc(Introducer.Loc));
    P.Text = model::pragmaSpan(SM, PP.getLangOpts(), Introducer.Loc, Tok.getLocation());
    using A = model::PompPragma::Action;
    std::optional<A> What;
    if (Words.size() == 1)
      What = llvm::StringSwitch<std::optional<A>>(Words[0])
                 .Case("noinstrument", A::NoInstrument)
                 .Case("instrument", A::Instrument)
                 .Default(std::nullopt);
    else if (Words.size() == 2 && Words[0] == "inst")
      What = llvm::StringSwitch<std::optional<A>>(Words[1])
                 .Case("init", A::Init)
                 .Case("finalize", A::Finalize)
                 .Case("on", A::On)
                 .Case("off", A::Off)
                 .Default(std::nullopt);
    else if (Words.size() == 5 && Words[0] == "inst" && Words[2] == "(" && Words[4] == ")") {
      What = llvm::StringSwitch<std::optional<A>>(Words[1])
                 .Case("begin", A::Begin)
                 .Case("end", A::End)
                 .Case("altend", A::Altend)
                 .Default(std::nullopt);
      P.RegionName = Words[3];
    }
    P.What = What.value_or(A::Unknown);
    Out.Pomp.push_back(std::move(P));
  }

private:
  model::UnitModel &Out;
};

/// The main file's declarative scopes: `declare target` ... `end declare
/// target` (and the `begin` forms of OpenMP 5.1), `begin declare variant` ...
/// `end declare variant`, `begin assumes` ... `end assumes`.  Code placed in
/// one changes meaning: its declarations become device code, variants of a
/// context that may not match (whose code Clang then skips), or assumed.
class DeclarativeScopeRecorder : public PPCallbacks {
public:
  DeclarativeScopeRecorder(model::UnitModel &Out, const Preprocessor &PP) : Out(Out), PP(PP) {}

  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Kind) override {
    const SourceManager &SM = PP.getSourceManager();
    if (Kind != PIK_HashPragma || !Loc.isFileID() || !SM.isWrittenInMainFile(Loc))
      return;
    auto [Words, LineEnd] = pragmaWords(Loc);
    if (Words.size() < 2 || Words[0] != "omp")
      return;
    llvm::ArrayRef<StringRef> Directive = llvm::ArrayRef(Words).drop_front();
    if (opens(Directive)) {
      Open.push_back(SM.getFileOffset(Loc));
    } else if (Directive[0] == "end" && Directive.size() >= 2 &&
               (Directive[1] == "declare" || Directive[1] == "assumes") && !Open.empty()) {
      unsigned Begin = Open.back();
      Open.pop_back();
      if (Open.empty()) // nested scopes lie inside the outermost one
        Out.DeclarativeScopes.push_back(Span{Begin, LineEnd});
    }
  }

  void EndOfMainFile() override {
    if (!Open.empty()) // unterminated: the rest of the file
      Out.DeclarativeScopes.push_back(
          Span{Open.front(), static_cast<unsigned>(PP.getSourceManager().getBufferData(
                                                     PP.getSourceManager().getMainFileID()).size())});
  }

private:
  /// `declare target` without a list or `to`/`enter`/`link` clause (OpenMP
  /// 4.5's delimited form), and every `begin` directive.
  static bool opens(llvm::ArrayRef<StringRef> Directive) {
    if (Directive[0] == "begin")
      return Directive.size() >= 2 && (Directive[1] == "declare" || Directive[1] == "assumes");
    if (Directive.size() < 2 || Directive[0] != "declare" || Directive[1] != "target")
      return false;
    llvm::ArrayRef<StringRef> Clauses = Directive.drop_front(2);
    if (!Clauses.empty() && Clauses[0] == "(")
      return false;
    return llvm::none_of(Clauses, [](StringRef W) { return W == "to" || W == "enter" || W == "link"; });
  }

  /// The pragma's tokens after `pragma` (continued lines joined, comments
  /// dropped) and the offset of its line's end.
  std::pair<std::vector<StringRef>, unsigned> pragmaWords(SourceLocation Hash) const {
    const SourceManager &SM = PP.getSourceManager();
    FileID File = SM.getFileID(Hash);
    StringRef Buffer = SM.getBufferData(File);
    Lexer Raw(SM.getLocForStartOfFile(File), PP.getLangOpts(), Buffer.begin(),
              Buffer.begin() + SM.getFileOffset(Hash), Buffer.end());
    Raw.setParsingPreprocessorDirective(true);
    std::vector<StringRef> Words;
    Token T;
    for (Raw.LexFromRawLexer(T); T.isNot(tok::eod) && T.isNot(tok::eof); Raw.LexFromRawLexer(T))
      Words.push_back(StringRef(SM.getCharacterData(T.getLocation()), T.getLength()));
    // '#' and `pragma` first
    if (Words.size() >= 2)
      Words.erase(Words.begin(), Words.begin() + 2);
    return {Words, SM.getFileOffset(T.getLocation())};
  }

  model::UnitModel &Out;
  const Preprocessor &PP;
  std::vector<unsigned> Open; // where each open scope's pragma begins
};

/// `#pragma omp` lines in the user's headers: the AST of header code is not
/// rewritten (and function bodies in headers are not even parsed), so the
/// planner warns about them, once per header.
class HeaderPragmaRecorder : public PPCallbacks {
public:
  HeaderPragmaRecorder(model::UnitModel &Out, const SourceManager &SM) : Out(Out), SM(SM) {}

  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Kind) override {
    if (Kind != PIK_HashPragma || !Loc.isFileID() || SM.isWrittenInMainFile(Loc) ||
        SM.isInSystemHeader(Loc) || !isOmpPragma(Loc))
      return;
    PresumedLoc P = SM.getPresumedLoc(Loc);
    if (P.isInvalid())
      return;
    for (model::HeaderDirectives &H : Out.HeaderPragmas)
      if (H.File == P.getFilename()) {
        if (P.getLine() > H.LastLine) { // a header included twice counts once
          ++H.Count;
          H.LastLine = P.getLine();
        }
        return;
      }
    // Reported at the main file's #include that brings the header in.
    SourceLocation Include = SM.getIncludeLoc(SM.getFileID(Loc));
    while (Include.isValid() && !SM.isWrittenInMainFile(Include))
      Include = SM.getIncludeLoc(SM.getFileID(Include));
    model::HeaderDirectives H;
    H.File = P.getFilename();
    if (Include.isValid())
      H.IncludeOffset = SM.getFileOffset(SM.getExpansionLoc(Include));
    H.FirstLine = H.LastLine = P.getLine();
    H.Count = 1;
    Out.HeaderPragmas.push_back(std::move(H));
  }

  /// The main file's includes of user headers: the rewriter may inline them.
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef File, StringRef,
                          StringRef, const Module *, SrcMgr::CharacteristicKind FileType) override {
    if (!File || FileType != SrcMgr::C_User || !HashLoc.isFileID() || !SM.isWrittenInMainFile(HashLoc))
      return;
    bool Invalid = false;
    StringRef Buffer = SM.getBufferData(SM.getMainFileID(), &Invalid);
    if (Invalid)
      return;
    unsigned Begin = SM.getFileOffset(HashLoc);
    unsigned End = SM.getFileOffset(SM.getExpansionLoc(FilenameRange.getEnd()));
    End = std::min<size_t>(Buffer.find('\n', End), Buffer.size());
    PresumedLoc P = SM.getPresumedLoc(HashLoc);
    PresumedLoc Main = SM.getPresumedLoc(SM.getLocForStartOfFile(SM.getMainFileID()));
    if (P.isInvalid() || Main.isInvalid())
      return;
    bool OwnName = StringRef(P.getFilename()) == Main.getFilename();
    Out.Includes.push_back({Span{Begin, End}, File->getName().str(), OwnName ? "" : P.getFilename(),
                            P.getLine() + 1});
  }

private:
  /// `#` [blanks] `pragma` [blanks] `omp` and a directive with code to
  /// measure: declarative directives (`declare reduction`, `threadprivate`,
  /// ...) are at home in headers and never instrumented anyway.
  bool isOmpPragma(SourceLocation Hash) const {
    bool Invalid = false;
    const char *C = SM.getCharacterData(Hash, &Invalid);
    if (Invalid || *C != '#')
      return false;
    auto Blanks = [&] {
      while (*C == ' ' || *C == '\t')
        ++C;
    };
    ++C;
    Blanks();
    if (StringRef(C, 6) != "pragma")
      return false;
    C += 6;
    Blanks();
    if (StringRef(C, 3) != "omp" || isAsciiIdentifierContinue(C[3]))
      return false;
    C += 3;
    Blanks();
    const char *Word = C;
    while (isAsciiIdentifierContinue(*C))
      ++C;
    static constexpr llvm::StringLiteral Declarative[] = {
        "declare", "threadprivate", "requires", "begin", "end", "assumes", "allocate"};
    return !llvm::is_contained(Declarative, StringRef(Word, C - Word));
  }

  model::UnitModel &Out;
  const SourceManager &SM;
};

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, model::UnitModel &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Out(Out) {}

  bool dataTraverseStmtPre(Stmt *S) {
    auto *D = dyn_cast<OMPExecutableDirective>(S);
    if (!D)
      return true;
    if (!SM.isWrittenInMainFile(SM.getExpansionLoc(D->getBeginLoc())))
      return true;
    model::Directive M = model::buildDirective(*D, Ctx);
    M.Parent = Open.empty() ? -1 : static_cast<int>(Open.back().second);
    M.Depth = Open.size();
    Open.emplace_back(S, Out.Directives.size());
    Out.Directives.push_back(std::move(M));
    return true;
  }
  bool dataTraverseStmtPost(Stmt *S) {
    if (!Open.empty() && Open.back().first == S)
      Open.pop_back();
    return true;
  }

  /// Function bodies name the regions inside them (UnitModel::functionAt).
  bool VisitFunctionDecl(FunctionDecl *F) {
    const Stmt *Body = F->doesThisDeclarationHaveABody() ? F->getBody() : nullptr;
    const auto *Method = dyn_cast<CXXMethodDecl>(F);
    if (!Body || (Method && Method->getParent()->isLambda()))
      return true;
    auto B = mainFileOffset(SM, SM.getExpansionLoc(Body->getBeginLoc()));
    auto E = mainFileOffset(SM, SM.getExpansionLoc(Body->getEndLoc()));
    if (B && E)
      Out.FunctionBodies.push_back({Span{*B, *E + 1}, functionName(*F)});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *F = dyn_cast<FunctionDecl>(E->getDecl()))
      if (const IdentifierInfo *Name = F->getIdentifier()) // operators have none
        lockReference(Name->getName(), E->getLocation());
    return true;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
    if (E->getName().isIdentifier())
      lockReference(E->getName().getAsIdentifierInfo()->getName(), E->getNameLoc());
    return true;
  }
  bool VisitCompoundStmt(CompoundStmt *S) {
    auto B = mainFileOffset(SM, S->getLBracLoc()), E = mainFileOffset(SM, S->getRBracLoc());
    if (B && E)
      Out.CompoundStatements.push_back(Span{*B, *E + 1});
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *S) { return earlyExit(S->getBeginLoc()); }
  bool VisitGotoStmt(GotoStmt *S) { return earlyExit(S->getBeginLoc()); }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) { return earlyExit(E->getBeginLoc()); }

private:
  std::string functionName(const FunctionDecl &F) const {
    PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.SuppressUnwrittenScope = true; // no "(anonymous namespace)::"
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    F.printQualifiedName(OS, Policy);
    return OS.str();
  }

  bool earlyExit(SourceLocation L) {
    if (auto O = mainFileOffset(SM, SM.getExpansionLoc(L)))
      Out.EarlyExits.push_back(*O);
    return true;
  }

  void lockReference(StringRef Name, SourceLocation L) {
    if (!isLockFunction(Name))
      return;
    SourceLocation Spelling = L.isMacroID() && SM.isMacroArgExpansion(L) ? SM.getSpellingLoc(L) : L;
    if (auto O = mainFileOffset(SM, Spelling)) {
      Out.Locks.push_back({Span{*O, *O + static_cast<unsigned>(Name.size())}, Name.str()});
    } else if (SM.isWrittenInMainFile(SM.getExpansionLoc(L))) {
      Out.Unmappable.emplace_back(SM.getPresumedLineNumber(SM.getExpansionLoc(L)),
                                  Name.str() + " (inside a macro)");
    }
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  model::UnitModel &Out;
  std::vector<std::pair<Stmt *, size_t>> Open;
};

class CollectConsumer : public ASTConsumer {
public:
  CollectConsumer(model::UnitModel &Out, const SourceManager &SM) : Out(Out), SM(SM) {}

  /// Bodies of functions in headers are never rewritten; skipping them (as
  /// clangd does for preambles) saves much of the parse time.  Sema keeps
  /// the bodies it needs (constexpr, deduced return types).
  bool shouldSkipFunctionBody(Decl *D) override {
    return !SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation()));
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    Out.Text = SM.getBufferData(SM.getMainFileID()).str();
    Out.CPlusPlus = Ctx.getLangOpts().CPlusPlus;
    recordLineDirectives(SM, Out);
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      CharSourceRange R = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(D->getSourceRange()), SM, Ctx.getLangOpts());
      auto B = mainFileOffset(SM, R.getBegin()), E = mainFileOffset(SM, R.getEnd());
      if (R.isValid() && B && E)
        Out.TopLevelDecls.push_back(Span{*B, *E});
    }
    Collector(Ctx, Out).TraverseDecl(Ctx.getTranslationUnitDecl());
  }

  model::UnitModel &Out;
  const SourceManager &SM;
};

class CollectAction : public ASTFrontendAction {
public:
  explicit CollectAction(model::UnitModel &Out) : Out(Out) {}
  bool BeginInvocation(CompilerInstance &CI) override {
    CI.getFrontendOpts().SkipFunctionBodies = true;
    // Without carets the front end does not print "N errors generated."
    // straight to stderr: the diagnostics are the caller's to show or not
    // (they go to the parse's own consumer, with its own options).
    CI.getDiagnosticOpts().ShowCarets = false;
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    recordPreprocessorFacts(CI.getPreprocessor(), Out);
    return std::make_unique<CollectConsumer>(Out, CI.getSourceManager());
  }

private:
  model::UnitModel &Out;
};

std::string resourceDir() {
  if (auto Env = llvm::sys::Process::GetEnv("OMPP_CLANG_RESOURCE_DIR"))
    return *Env;
  return OMPP_CLANG_RESOURCE_DIR;
}

/// <prefix>/include of the installation (or build tree) the running tool
/// lives in (<prefix>/bin), if it holds the POMP2 headers.
std::optional<std::string> pomp2IncludeDir() {
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&resourceDir));
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "include");
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "pomp2", "pomp2_user.h");
  if (!llvm::sys::fs::exists(Probe))
    return std::nullopt;
  return Dir.str().str();
}

} // namespace

bool isLockFunction(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("omp_init_lock", "omp_destroy_lock", "omp_set_lock", "omp_unset_lock", "omp_test_lock",
             true)
      .Cases("omp_init_nest_lock", "omp_destroy_nest_lock", "omp_set_nest_lock",
             "omp_unset_nest_lock", "omp_test_nest_lock", true)
      .Cases("omp_init_lock_with_hint", "omp_init_nest_lock_with_hint", true)
      .Default(false);
}

void recordPreprocessorFacts(Preprocessor &PP, model::UnitModel &Out) {
  PP.AddPragmaHandler(new PompPragmaHandler(Out));
  PP.addPPCallbacks(std::make_unique<HeaderPragmaRecorder>(Out, PP.getSourceManager()));
  PP.addPPCallbacks(std::make_unique<DeclarativeScopeRecorder>(Out, PP));
}

/// Where the input has `#line` directives of its own, the rewritten file's
/// `#line`s must restore their numbering, not the physical one.
void recordLineDirectives(const SourceManager &SM, model::UnitModel &Out) {
  model::LineTable Lines(Out.Text);
  FileID Main = SM.getMainFileID();
  PresumedLoc First = SM.getPresumedLoc(SM.getLocForStartOfFile(Main));
  std::vector<model::PresumedLine> Presumed;
  bool Differs = false;
  for (unsigned Line = 1; Line <= Lines.lineCount(); ++Line) {
    PresumedLoc P = SM.getPresumedLoc(SM.getComposedLoc(Main, Lines.offsetOfLine(Line)));
    if (P.isInvalid())
      return;
    bool OwnName = llvm::StringRef(P.getFilename()) == First.getFilename();
    Presumed.push_back({P.getLine(), OwnName ? "" : P.getFilename()});
    Differs |= P.getLine() != Line || !OwnName;
  }
  if (Differs)
    Out.PresumedLines = std::move(Presumed);
}

char FrontEndError::ID;

std::string FrontEndError::firstError() const {
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Diagnostics).split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    if (Line.contains(": error: ") || Line.contains(": fatal error: ") ||
        Line.startswith("error: "))
      return Line.str();
  return File + ": the compiler front end reported errors";
}

void FrontEndError::log(llvm::raw_ostream &OS) const {
  OS << File << ": not instrumented: " << firstError();
}

std::error_code FrontEndError::convertToErrorCode() const {
  return std::make_error_code(std::errc::invalid_argument);
}

std::vector<std::string> parserArguments(llvm::ArrayRef<std::string> ClangArgs) {
  std::vector<std::string> Args(ClangArgs.begin(), ClangArgs.end());
  auto Has = [&](llvm::StringRef Prefix) {
    return llvm::any_of(Args, [&](const std::string &A) { return llvm::StringRef(A).startswith(Prefix); });
  };
  // The directives are parsed even where the compile ignores them (no
  // -fopenmp: the driver warns), and -fopenmp-simd or -fopenmp-version=
  // do not turn OpenMP on.
  Args.push_back("-fopenmp");
  if (!Has("-resource-dir"))
    Args.push_back("-resource-dir=" + resourceDir());
  // Sources may include <pomp2/pomp2_user.h>: find it in the tool's own
  // prefix, after everything the user's flags name.
  if (auto Pomp2 = pomp2IncludeDir()) {
    Args.push_back("-idirafter");
    Args.push_back(*Pomp2);
  }
  // Only the AST is needed here: warnings (and -Werror) belong to the real
  // compile of the rewritten file, which the user's compiler reports.
  Args.push_back("-w");
  return Args;
}

llvm::Error runClang(llvm::StringRef File, llvm::ArrayRef<std::string> ClangArgs,
                     std::unique_ptr<FrontendAction> Action, std::optional<llvm::StringRef> Text) {
  if (!llvm::sys::fs::exists(File))
    return llvm::createStringError(std::errc::no_such_file_or_directory, "%s: no such file",
                                   File.str().c_str());
  // A ToolInvocation, not a ClangTool: ClangTool makes the file name
  // "native", which on POSIX turns a '\\' in it into '/'.
  std::vector<std::string> CommandLine{"ompp-instrument"};
  llvm::append_range(CommandLine, parserArguments(ClangArgs));
  llvm::append_range(CommandLine, std::vector<std::string>{"-fsyntax-only", File.str()});
  std::string Diagnostics;
  llvm::raw_string_ostream DiagnosticStream(Diagnostics);
  TextDiagnosticPrinter Printer(DiagnosticStream, new DiagnosticOptions);
  // With Text, File's content is ompp's (headers inlined): an in-memory file
  // of the same name over the real file system.  Its diagnostics are kept
  // like any others, for the caller to drop.
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  if (Text) {
    auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    llvm::SmallString<256> Absolute(File);
    llvm::sys::fs::make_absolute(Absolute);
    Memory->addFile(Absolute, 0, llvm::MemoryBuffer::getMemBufferCopy(*Text, Absolute));
    Overlay->pushOverlay(Memory);
    llvm::SmallString<256> WorkingDirectory;
    llvm::sys::fs::current_path(WorkingDirectory);
    Overlay->setCurrentWorkingDirectory(WorkingDirectory);
  }
  llvm::IntrusiveRefCntPtr<FileManager> Files(new FileManager(FileSystemOptions(), Overlay));
  tooling::ToolInvocation Invocation(std::move(CommandLine), std::move(Action), Files.get());
  Invocation.setDiagnosticConsumer(&Printer);
  // Clang 16 itself crashes on some valid code (e.g. GCC's libgomp.c++/scan-14.C):
  // that is a file Clang cannot parse, not a crash of the build.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext Recovery;
  bool Parsed = false;
  if (!Recovery.RunSafely([&] { Parsed = Invocation.run(); }))
    DiagnosticStream << File << ": error: an internal error of Clang 16 while parsing this file\n";
  else if (Parsed)
    return llvm::Error::success();
  return llvm::make_error<FrontEndError>(File.str(), std::move(DiagnosticStream.str()));
}

llvm::Expected<model::UnitModel> parseMainFile(llvm::StringRef File,
                                               llvm::ArrayRef<std::string> ClangArgs,
                                               std::optional<llvm::StringRef> Text) {
  model::UnitModel Model;
  if (llvm::Error E = runClang(File, ClangArgs, std::make_unique<CollectAction>(Model), Text))
    return E;
  return Model;
}

} // namespace ompp::instrument::parse
