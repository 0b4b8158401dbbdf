//===--- TextualParse.cpp - the token-level fallback front end ------------===//
//
// Two steps.  Clang's preprocessor runs alone over the file (no Sema) and
// records what only it knows: the inactive #if branches, which `#pragma`
// lines are active, which macro expansions may open or end statements, and
// pragmas that come from macros.  Then the main file is lexed raw, and a
// small recursive-descent reader over its active tokens finds declarations,
// function bodies and statements, far enough to delimit every OpenMP
// construct's structured block as the C/C++ grammar does.
//
//===----------------------------------------------------------------------===//
#include "parse/TextualParse.h"

#include "model/LineTable.h"
#include "parse/Parse.h"
#include "parse/Shared.h"

#include "clang/Basic/OpenMPKinds.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <map>
#include <set>

namespace ompp::instrument::parse {

using namespace clang;
using namespace llvm::omp;
using model::Construct;
using model::Span;

namespace {

/// A `#pragma omp` line as the compiler reads it, macros expanded: its
/// tokens' kinds and places in Text (the spellings joined by blanks).
struct ExpandedPragma {
  std::shared_ptr<const std::string> Text;
  std::vector<std::pair<tok::TokenKind, Span>> Tokens;
};

/// What the preprocessor knows that the raw tokens do not.
struct PreprocessorFacts {
  std::map<unsigned, ExpandedPragma> ExpandedPragmas; // `#pragma omp` lines using macros
  std::vector<Span> Skipped;              // inactive #if branches
  std::set<unsigned> ActivePragmas;       // offsets of the '#' of active `#pragma` lines
  std::set<unsigned> MacroPragmas;        // macros or _Pragma expanding to a pragma
  std::map<unsigned, ExpandedPragma> MacroOmpPragmas; // ... to an OpenMP directive
  std::map<unsigned, bool> StatementMacros; // macros whose expansion may hold, open or end
                                            // statements -> function-like?
};

/// Whether a macro's replacement may hold, begin or end statements: nothing
/// at all (`#define OMPTGT` before a pragma or a block), a ';',
/// a brace or a statement keyword outside parentheses (`{ a; b; }`, `for
/// (...)`, `do {...} while (0)`), unbalanced brackets, or a pragma.  Where
/// the statements around such an expansion end cannot be read from the
/// unexpanded tokens.
bool shapesStatements(const MacroInfo &Macro) {
  if (Macro.tokens_empty())
    return true;
  int Parens = 0;
  for (const Token &T : Macro.tokens()) {
    if (const IdentifierInfo *Name = T.getIdentifierInfo(); Name && Name->getName() == "_Pragma")
      return true;
    if (T.isOneOf(tok::l_paren, tok::l_square))
      ++Parens;
    else if (T.isOneOf(tok::r_paren, tok::r_square) && --Parens < 0)
      return true;
    else if (Parens == 0 &&
             (T.isOneOf(tok::semi, tok::l_brace, tok::r_brace, tok::kw_if, tok::kw_else,
                        tok::kw_for, tok::kw_while, tok::kw_do, tok::kw_switch) ||
              T.isOneOf(tok::kw_return, tok::kw_goto, tok::kw_break, tok::kw_continue,
                        tok::kw_case, tok::kw_default, tok::kw_try)))
      return true;
  }
  return Parens != 0;
}

/// Reads `#pragma omp` lines of the main file as the compiler does, with
/// macros expanded (`#pragma omp F S` with `#define F taskloop`), and keeps
/// those where a macro expanded.
class OmpPragmaReader : public PragmaHandler {
public:
  OmpPragmaReader(PreprocessorFacts &Facts) : PragmaHandler("omp"), Facts(Facts) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &) override {
    const SourceManager &SM = PP.getSourceManager();
    ExpandedPragma Expanded;
    std::string Text;
    bool FromMacro = false;
    Token Tok;
    for (PP.Lex(Tok); Tok.isNot(tok::eod); PP.Lex(Tok)) {
      FromMacro |= Tok.getLocation().isMacroID();
      Text += Text.empty() ? "" : " ";
      std::string Spelling = PP.getSpelling(Tok);
      Expanded.Tokens.emplace_back(Tok.getIdentifierInfo() ? tok::raw_identifier : Tok.getKind(),
                                   Span{unsigned(Text.size()), unsigned(Text.size() + Spelling.size())});
      Text += Spelling;
    }
    Expanded.Text = std::make_shared<const std::string>(std::move(Text));
    SourceLocation Expansion = SM.getExpansionLoc(Introducer.Loc);
    if (!SM.isWrittenInMainFile(Expansion))
      return;
    if (Introducer.Kind != PIK_HashPragma || Introducer.Loc.isMacroID())
      Facts.MacroOmpPragmas[SM.getFileOffset(Expansion)] = std::move(Expanded);
    else if (FromMacro)
      Facts.ExpandedPragmas[SM.getFileOffset(Expansion)] = std::move(Expanded);
  }

private:
  PreprocessorFacts &Facts;
};

class FactsRecorder : public PPCallbacks {
public:
  FactsRecorder(PreprocessorFacts &Facts, const SourceManager &SM) : Facts(Facts), SM(SM) {}

  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    auto B = mainOffset(Range.getBegin()), E = mainOffset(Range.getEnd());
    if (B && E)
      Facts.Skipped.push_back(Span{*B, *E});
  }

  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Kind) override {
    if (Kind == PIK_HashPragma && Loc.isFileID()) {
      if (auto O = mainOffset(Loc))
        Facts.ActivePragmas.insert(*O);
      return;
    }
    if (auto O = mainOffset(SM.getExpansionLoc(Loc)))
      Facts.MacroPragmas.insert(*O);
  }

  void MacroExpands(const Token &Name, const MacroDefinition &Definition, SourceRange,
                    const MacroArgs *) override {
    const MacroInfo *Macro = Definition.getMacroInfo();
    if (!Name.getLocation().isFileID() || !Macro || !shapesStatements(*Macro))
      return;
    if (auto O = mainOffset(Name.getLocation()))
      Facts.StatementMacros[*O] = Macro->isFunctionLike();
  }

private:
  std::optional<unsigned> mainOffset(SourceLocation L) const {
    if (L.isInvalid() || L.isMacroID() || !SM.isWrittenInMainFile(L))
      return std::nullopt;
    return SM.getFileOffset(L);
  }

  PreprocessorFacts &Facts;
  const SourceManager &SM;
};

/// One active token of the main file, or a whole `#pragma omp` line, or an
/// `#include` line (whose tokens the reader cannot see).
struct Tok {
  tok::TokenKind Kind = tok::unknown;
  unsigned Begin = 0, End = 0;
  llvm::StringRef Text;
  int Pragma = -1;            // index into the pragma lines
  bool Opaque = false;        // an #include line, a macro expanding to a pragma or to statements
  bool FunctionLikeMacro = false;
  bool is(tok::TokenKind K) const { return Pragma < 0 && !Opaque && Kind == K; }
  bool word(llvm::StringRef W) const { return is(tok::raw_identifier) && Text == W; }
  bool opens() const { return is(tok::l_paren) || is(tok::l_square) || is(tok::l_brace); }
  bool closes() const { return is(tok::r_paren) || is(tok::r_square) || is(tok::r_brace); }
};

struct PragmaLine {
  Span Text;                  // '#' to the end of its last continued line (newline excluded)
  std::vector<Tok> Words;     // the tokens after `omp`, with places in the main file ...
  std::shared_ptr<const std::string> Expanded; // ... or in this text (macros expanded)
  bool Visited = false;
};

using End = std::optional<size_t>; // one past a statement's last token, if it could be delimited

bool isDeclarative(llvm::StringRef Name) {
  return Name.startswith("declare") || Name.startswith("begin") || Name.startswith("end") ||
         llvm::is_contained(std::initializer_list<llvm::StringRef>{"threadprivate", "requires", "allocate", "assumes"}, Name);
}

bool isStandalone(OpenMPDirectiveKind K) {
  switch (K) {
  case OMPD_barrier: case OMPD_flush: case OMPD_taskwait: case OMPD_taskyield: case OMPD_cancel:
  case OMPD_cancellation_point: case OMPD_scan: case OMPD_target_update:
  case OMPD_target_enter_data: case OMPD_target_exit_data: case OMPD_interop: case OMPD_depobj:
  case OMPD_error: case OMPD_nothing:
    return true;
  default:
    return false;
  }
}

/// Reads the model from the main file's tokens.
class Reader {
public:
  Reader(model::UnitModel &Out, std::vector<Tok> Toks, std::vector<PragmaLine> Pragmas)
      : Out(Out), Toks(std::move(Toks)), Pragmas(std::move(Pragmas)), Lines(Out.Text) {}

  /// OpenMP directives from macros or _Pragma (P.Text: where they expand):
  /// a warning each, unless there is nothing to measure in them.
  void macroDirectives(const std::vector<PragmaLine> &FromMacros) {
    for (const PragmaLine &P : FromMacros) {
      model::Directive D = describe(P);
      if (isDeclarative(D.Name) || D.Kind == Construct::Passive || D.Kind == Construct::Device)
        continue;
      Out.Unmappable.emplace_back(D.Line, "'" + D.Name + "' from a macro (Clang cannot parse this "
                                          "file, and ompp's textual parse does not expand macros)");
    }
  }

  /// Fills the model; the reason if the file cannot be read at all.
  std::optional<std::string> read() {
    if (!matchBrackets())
      return "the brackets of its active code do not balance";
    declarations(0, Toks.size(), /*TopLevel=*/true);
    for (PragmaLine &P : Pragmas)
      if (!P.Visited) {
        model::Directive D = describe(P);
        if (isDeclarative(D.Name))
          continue;
        D.NotEditable = "is not in a function body ompp's textual parse can follow (Clang cannot "
                        "parse this file)";
        Out.Directives.push_back(std::move(D));
      }
    collectCalls();
    return std::nullopt;
  }

private:
  size_t size() const { return Toks.size(); }
  bool isAt(size_t I, tok::TokenKind K) const { return I < size() && Toks[I].is(K); }
  bool wordAt(size_t I, llvm::StringRef W) const { return I < size() && Toks[I].word(W); }
  unsigned lineOf(unsigned Offset) const { return Out.presumed(Lines.line(Offset)).Line; }
  Span spanOf(size_t First, size_t Last) const { return Span{Toks[First].Begin, Toks[Last].End}; }

  bool matchBrackets() {
    Match.assign(size(), 0);
    std::vector<size_t> Open;
    for (size_t I = 0; I < size(); ++I) {
      if (Toks[I].opens())
        Open.push_back(I);
      else if (Toks[I].closes()) {
        if (Open.empty())
          return false;
        size_t O = Open.back();
        Open.pop_back();
        auto Pair = std::pair(Toks[O].Kind, Toks[I].Kind);
        if (Pair != std::pair(tok::l_paren, tok::r_paren) &&
            Pair != std::pair(tok::l_square, tok::r_square) &&
            Pair != std::pair(tok::l_brace, tok::r_brace))
          return false;
        Match[O] = I;
        Match[I] = O;
      }
    }
    return Open.empty();
  }

  //===--- declarations -----------------------------------------------------===//

  void declarations(size_t I, size_t Stop, bool TopLevel) {
    while (I < Stop) {
      if (Toks[I].Pragma >= 0 || Toks[I].Opaque) {
        if (Toks[I].Pragma >= 0 && isDeclarative(describe(Pragmas[Toks[I].Pragma]).Name))
          Pragmas[Toks[I].Pragma].Visited = true;
        ++I;
        continue;
      }
      size_t Last = declaration(I, Stop);
      lambdas(I, Last);
      if (TopLevel)
        Out.TopLevelDecls.push_back(spanOf(I, Last - 1));
      I = Last;
    }
  }

  /// One declaration from I: up to its ';', or the '}' of a function body,
  /// namespace or linkage block (not of `struct S {...} s;`).  Returns one
  /// past its last token.
  size_t declaration(size_t I, size_t Stop) {
    bool Container = Toks[I].word("namespace") ||
                     (Toks[I].word("inline") && wordAt(I + 1, "namespace")) ||
                     (Toks[I].word("extern") && I + 2 < Stop &&
                      Toks[I + 1].is(tok::string_literal) && Toks[I + 2].is(tok::l_brace));
    bool ClassKey = false, Enum = false, SawParen = false, Assigns = false, CtorInit = false;
    for (size_t J = I; J < Stop; ++J) {
      const Tok &T = Toks[J];
      if (J > I && (T.Pragma >= 0 || T.Opaque))
        return J;
      if (T.is(tok::semi))
        return J + 1;
      if (T.is(tok::l_paren) || T.is(tok::l_square)) {
        SawParen |= T.is(tok::l_paren);
        J = Match[J];
      } else if (T.is(tok::equal) && !(J > I && Toks[J - 1].word("operator"))) {
        Assigns = true;
      } else if (T.is(tok::colon) && SawParen) {
        CtorInit = true;
      } else if (T.word("struct") || T.word("class") || T.word("union")) {
        ClassKey = true;
      } else if (T.word("enum")) {
        Enum = true;
      } else if (T.is(tok::l_brace)) {
        size_t Close = Match[J];
        if (Container) {
          ScopeGuard InScope(Scopes, namespaceName(I, J));
          declarations(J + 1, Close, /*TopLevel=*/false);
          return Close + 1;
        }
        const Tok &Before = Toks[J - (J > I ? 1 : 0)];
        bool FunctionBody = !Assigns && SawParen && J > I &&
                            (Before.is(tok::r_paren) ||
                             (CtorInit ? Before.is(tok::r_brace) : Before.is(tok::raw_identifier)));
        if (FunctionBody) {
          functionBody(J, declaratorName(I, J));
          return Close + 1;
        }
        if (ClassKey && !Enum && !Assigns && !SawParen) {
          ScopeGuard InScope(Scopes, className(I, J));
          declarations(J + 1, Close, /*TopLevel=*/false); // member function bodies
        }
        J = Close;
      }
    }
    return Stop;
  }

  /// The bodies of the C++ lambdas among the tokens [From, To) (`[...] {`,
  /// `[...](...) {`, with or without `mutable`/`noexcept`), outside the
  /// bodies already read.
  void lambdas(size_t From, size_t To) {
    if (!Out.CPlusPlus)
      return;
    for (size_t J = From; J < To; ++J) {
      if (!Toks[J].is(tok::l_brace) || J == 0)
        continue;
      if (Bodies.count(J)) {
        J = Match[J];
        continue;
      }
      size_t Before = J - 1;
      while (Before > From && (Toks[Before].word("mutable") || Toks[Before].word("noexcept")))
        --Before;
      bool Lambda = Toks[Before].is(tok::r_square) ||
                    (Toks[Before].is(tok::r_paren) && Match[Before] > 0 &&
                     Toks[Match[Before] - 1].is(tok::r_square));
      if (Lambda) {
        functionBody(J, std::nullopt); // named after the function around it, as Clang does
        J = Match[J];
      }
    }
  }

  /// Name: the function's qualified name (UnitModel::functionAt); none for a
  /// lambda, whose regions Clang's front end names after the function around it.
  void functionBody(size_t Open, std::optional<std::string> Name) {
    FunctionBodies.push_back(spanOf(Open, Match[Open]));
    if (Name) {
      std::string Qualified;
      for (const std::string &Scope : Scopes)
        if (!Scope.empty())
          Qualified += Scope + "::";
      Out.FunctionBodies.push_back({FunctionBodies.back(), Qualified + *Name});
    }
    compound(Open);
  }

  //===--- names, as Clang's printQualifiedName spells them ------------------===//

  /// The enclosing namespaces and classes of the declarations being read
  /// ("" for an anonymous namespace or a linkage block, which Clang leaves out).
  std::vector<std::string> Scopes;
  struct ScopeGuard {
    std::vector<std::string> &Scopes;
    ScopeGuard(std::vector<std::string> &Scopes, std::string Name) : Scopes(Scopes) {
      Scopes.push_back(std::move(Name));
    }
    ~ScopeGuard() { Scopes.pop_back(); }
  };

  /// `a::b` from the tokens [From, To) that spell a (qualified) name.
  std::string spelled(size_t From, size_t To) const {
    std::string Name;
    for (size_t K = From; K < To; ++K)
      Name += Toks[K].Text.str();
    return Name;
  }

  /// `namespace a::b {`; "" for `namespace {`, `inline namespace v1 {` and
  /// `extern "C" {`, which Clang's names leave out.
  std::string namespaceName(size_t I, size_t Brace) const {
    return Toks[I].word("namespace") && I + 1 < Brace ? spelled(I + 1, Brace) : "";
  }

  /// `struct [[attr]] S final : Base {` names S.
  std::string className(size_t I, size_t Brace) const {
    for (size_t K = I; K < Brace; ++K) {
      if (!(Toks[K].word("struct") || Toks[K].word("class") || Toks[K].word("union")))
        continue;
      for (size_t N = K + 1; N < Brace; ++N) {
        if (Toks[N].opens()) {
          N = Match[N]; // [[...]], alignas(...), __attribute__((...))
        } else if (Toks[N].is(tok::raw_identifier) && !Toks[N].word("alignas") &&
                   !Toks[N].word("__attribute__") && !Toks[N].word("__declspec")) {
          return Toks[N].Text.str();
        } else {
          return "";
        }
      }
    }
    return "";
  }

  /// The declarator name of the function definition whose body opens at
  /// Brace: the (qualified) name before the first parameter list, e.g.
  /// `Chunk::advance`, `~Chunk`, `operator==`.
  std::string declaratorName(size_t I, size_t Brace) const {
    static constexpr llvm::StringLiteral NotNames[] = {
        "__attribute__", "alignas", "decltype", "__declspec", "typeof", "__typeof__", "sizeof",
        "alignof", "noexcept", "throw", "requires", "__asm__", "asm"};
    for (size_t K = I; K < Brace; ++K) {
      if (Toks[K].word("operator")) {
        size_t Params = K + 1;
        if (isAt(Params, tok::l_paren)) // operator()
          Params = Match[Params] + 1;
        while (Params < Brace && !Toks[Params].is(tok::l_paren))
          ++Params;
        return qualifiers(K) + spelled(K, Params);
      }
      if (!Toks[K].is(tok::l_paren))
        continue;
      if (K > I && Toks[K - 1].is(tok::raw_identifier) &&
          !llvm::is_contained(NotNames, Toks[K - 1].Text)) {
        size_t Name = K - 1;
        if (Name > I && Toks[Name - 1].is(tok::tilde))
          --Name;
        return qualifiers(Name) + spelled(Name, K);
      }
      K = Match[K];
    }
    return "";
  }

  /// The `A::B::` written before the name at token Name.
  std::string qualifiers(size_t Name) const {
    size_t First = Name;
    while (First >= 2 && Toks[First - 1].is(tok::coloncolon) && Toks[First - 2].is(tok::raw_identifier))
      First -= 2;
    return spelled(First, Name);
  }

  //===--- statements -------------------------------------------------------===//

  /// A compound statement always ends at its matching '}'; statements in it
  /// that cannot be delimited are stepped over (resynchronising at the next
  /// pragma or ';'), and the list of its statements is then incomplete.
  size_t compound(size_t Open) {
    size_t Close = Match[Open];
    Out.CompoundStatements.push_back(spanOf(Open, Close));
    Body &Statements = Bodies[Open];
    size_t I = Open + 1;
    while (I < Close) {
      if (Toks[I].Pragma >= 0 && isDeclarative(describe(Pragmas[Toks[I].Pragma]).Name)) {
        Pragmas[Toks[I].Pragma].Visited = true;
        ++I;
        continue;
      }
      if (End E = statement(I); E && *E <= Close) {
        Statements.List.emplace_back(I, *E);
        I = *E;
        continue;
      }
      Statements.Complete = false;
      I = resynchronise(I, Close);
    }
    return Close + 1;
  }

  size_t resynchronise(size_t I, size_t Close) {
    if (Toks[I].Opaque) // an #include line, or a macro name and its arguments
      return Toks[I].FunctionLikeMacro && isAt(I + 1, tok::l_paren) ? Match[I + 1] + 1 : I + 1;
    for (size_t J = I + 1; J < Close; ++J) {
      if (Toks[J].Pragma >= 0)
        return J;
      if (Toks[J].opens())
        J = Match[J];
      else if (Toks[J].is(tok::semi))
        return J + 1;
    }
    return Close;
  }

  End statement(size_t I) {
    if (auto Known = Memo.find(I); Known != Memo.end())
      return Known->second;
    End E = readStatement(I);
    Memo[I] = E;
    return E;
  }

  End readStatement(size_t I) {
    if (I >= size() || Toks[I].Opaque)
      return std::nullopt;
    const Tok &T = Toks[I];
    if (T.Pragma >= 0)
      return directive(I);
    if (T.is(tok::l_brace))
      return compound(I);
    if (T.is(tok::semi))
      return I + 1;
    if (T.is(tok::l_square) && isAt(I + 1, tok::l_square)) // [[attribute]]
      return statement(Match[I] + 1);
    if (T.word("if")) {
      size_t Condition = wordAt(I + 1, "constexpr") ? I + 2 : I + 1;
      if (!isAt(Condition, tok::l_paren))
        return std::nullopt;
      End Then = statement(Match[Condition] + 1);
      if (Then && wordAt(*Then, "else"))
        return statement(*Then + 1);
      return Then;
    }
    if (T.word("for") || T.word("while") || T.word("switch"))
      return isAt(I + 1, tok::l_paren) ? statement(Match[I + 1] + 1) : std::nullopt;
    if (T.word("do")) {
      End Body = statement(I + 1);
      if (!Body || !wordAt(*Body, "while") || !isAt(*Body + 1, tok::l_paren) ||
          !isAt(Match[*Body + 1] + 1, tok::semi))
        return std::nullopt;
      return Match[*Body + 1] + 2;
    }
    if (T.word("try")) {
      End After = isAt(I + 1, tok::l_brace) ? End(compound(I + 1)) : std::nullopt;
      while (After && wordAt(*After, "catch") && isAt(*After + 1, tok::l_paren) &&
             isAt(Match[*After + 1] + 1, tok::l_brace))
        After = compound(Match[*After + 1] + 1);
      return After;
    }
    if (T.word("case") || (T.word("default") && isAt(I + 1, tok::colon))) {
      for (size_t J = I + 1; J < size(); ++J) {
        if (Toks[J].is(tok::colon))
          return statement(J + 1);
        if (Toks[J].opens())
          J = Match[J];
        else if (Toks[J].Pragma >= 0 || Toks[J].Opaque || Toks[J].is(tok::semi) || Toks[J].closes())
          return std::nullopt;
      }
      return std::nullopt;
    }
    if (T.is(tok::raw_identifier) && isAt(I + 1, tok::colon)) // label
      return statement(I + 2);
    return expressionOrDeclaration(I);
  }

  /// Up to the ';' at this depth; a `name(...) {` with no '=' before it is a
  /// (GNU nested) function definition, which ends at its '}'.
  End expressionOrDeclaration(size_t I) {
    bool Assigns = false;
    for (size_t J = I; J < size(); ++J) {
      const Tok &T = Toks[J];
      if (T.Pragma >= 0 || T.Opaque || T.closes())
        return std::nullopt;
      if (T.is(tok::semi)) {
        lambdas(I, J);
        return J + 1;
      }
      if (T.is(tok::equal) || T.word("return") || T.word("throw"))
        Assigns = true;
      if (T.is(tok::l_brace) && !Assigns && J > I && Toks[J - 1].is(tok::r_paren) &&
          Toks[I].is(tok::raw_identifier)) {
        functionBody(J, declaratorName(I, J));
        return Match[J] + 1;
      }
      if (T.opens())
        J = Match[J];
    }
    return std::nullopt;
  }

  //===--- directives -------------------------------------------------------===//

  End directive(size_t I) {
    PragmaLine &P = Pragmas[Toks[I].Pragma];
    P.Visited = true;
    model::Directive M = describe(P);
    if (isDeclarative(M.Name))
      return std::nullopt;
    size_t Index = Out.Directives.size();
    M.Parent = Open.empty() ? -1 : static_cast<int>(Open.back());
    M.Depth = Open.size();
    bool Standalone = isStandalone(M.DirectiveKind) || M.Kind == Construct::OrderedDepend ||
                      (M.DirectiveKind == OMPD_unknown && M.Name != "scope");
    // `if (c) #pragma omp nothing i++;`: nothing and error are no statements.
    bool Transparent = M.DirectiveKind == OMPD_nothing || M.DirectiveKind == OMPD_error;
    Out.Directives.push_back(std::move(M));
    if (Standalone) {
      model::Directive &D = Out.Directives[Index];
      D.Whole = D.Pragma;
      D.EndLine = D.LineEnd;
      return Transparent && !isAt(I + 1, tok::r_brace) ? statement(I + 1) : End(I + 1);
    }
    Open.push_back(Index);
    End E = statement(I + 1);
    Open.pop_back();
    model::Directive &D = Out.Directives[Index];
    if (!E) {
      notEditable(D, "could not be delimited by ompp's textual parse (Clang cannot parse this "
                     "file; the statement after it may start with a macro)");
      return std::nullopt;
    }
    D.Block = spanOf(I + 1, *E - 1);
    D.Whole = Span{D.Pragma->Begin, D.Block->End};
    D.EndLine = lineOf(D.Whole->End - 1);
    if (isOpenMPLoopDirective(D.DirectiveKind) && !associatedLoops(D, I + 1)) {
      notEditable(D, "has associated loops ompp's textual parse cannot follow (Clang cannot "
                     "parse this file)");
      return E;
    }
    if ((D.Kind == Construct::Sections || D.Kind == Construct::ParallelSections) &&
        Toks[I + 1].is(tok::l_brace)) {
      const Body &Sections = Bodies[I + 1];
      D.NumSections = Sections.Complete ? Sections.List.size() : 0;
      if (Sections.Complete && !Sections.List.empty() &&
          Toks[Sections.List.front().first].Pragma < 0)
        D.ImplicitFirstSection =
            spanOf(Sections.List.front().first, Sections.List.front().second - 1);
    }
    return E;
  }

  static void notEditable(model::Directive &D, std::string Why) {
    D.Whole.reset();
    D.Block.reset();
    D.Pragma.reset();
    D.NotEditable = std::move(Why);
  }

  /// LoopBody and LoopCountersDeclaredOutside of the loops associated with a
  /// loop directive (collapse(n), ordered(n)), as the AST front end sees them.
  bool associatedLoops(model::Directive &D, size_t Loop) {
    unsigned Levels = 1;
    for (OpenMPClauseKind K : {OMPC_collapse, OMPC_ordered})
      if (const model::Clause *C = D.find(K); C && !C->Argument.empty()) {
        std::optional<unsigned> N = literalSum(C->Argument);
        if (!N || *N == 0)
          return false;
        Levels = std::max(Levels, *N);
      }
    for (unsigned Level = 0; Level < Levels; ++Level) {
      if (!wordAt(Loop, "for") || !isAt(Loop + 1, tok::l_paren))
        return false;
      if (isAt(Loop + 2, tok::raw_identifier) && isAt(Loop + 3, tok::equal))
        D.LoopCountersDeclaredOutside.push_back(Toks[Loop + 2].Text.str());
      size_t Body = Match[Loop + 1] + 1;
      if (Level + 1 == Levels) {
        End E = statement(Body);
        if (!E)
          return false;
        D.LoopBody = spanOf(Body, *E - 1);
        return true;
      }
      Loop = Body;
      while (isAt(Loop, tok::l_brace) && statement(Loop + 1) == End(Match[Loop]))
        ++Loop; // `{` holding only the next loop
    }
    return false;
  }

  /// The value of `3`, `4 - 1`, `1 + 1`: integer literals added and
  /// subtracted (what collapse and ordered arguments are in practice).
  static std::optional<unsigned> literalSum(llvm::StringRef Text) {
    long long Sum = 0;
    int Sign = 1;
    for (Text = Text.trim(); !Text.empty(); Text = Text.ltrim()) {
      unsigned long long Value = 0;
      if (Text.consumeInteger(10, Value))
        return std::nullopt;
      Sum += Sign * static_cast<long long>(Value);
      Text = Text.ltrim();
      if (Text.empty())
        break;
      if (Text.front() != '+' && Text.front() != '-')
        return std::nullopt;
      Sign = Text.front() == '+' ? 1 : -1;
      Text = Text.drop_front();
    }
    if (Sum <= 0 || Sum > 64)
      return std::nullopt;
    return static_cast<unsigned>(Sum);
  }

  //===--- a pragma line ----------------------------------------------------===//

  model::Directive describe(const PragmaLine &P) const {
    model::Directive D;
    D.Pragma = P.Text;
    D.Line = lineOf(P.Text.Begin);
    D.LineEnd = lineOf(P.Text.End > P.Text.Begin ? P.Text.End - 1 : P.Text.Begin);
    const std::vector<Tok> &W = P.Words;
    llvm::StringRef Source = P.Expanded ? llvm::StringRef(*P.Expanded) : llvm::StringRef(Out.Text);
    // The longest run of leading words that names a directive.
    size_t Words = 0;
    while (Words < W.size() && W[Words].is(tok::raw_identifier))
      ++Words;
    size_t Named = 0;
    for (size_t N = Words; N > 0 && Named == 0; --N) {
      std::string Name;
      for (size_t K = 0; K < N; ++K)
        Name += (K ? " " : "") + W[K].Text.str();
      if (getOpenMPDirectiveKind(Name) != OMPD_unknown) {
        D.DirectiveKind = getOpenMPDirectiveKind(Name);
        Named = N;
      }
    }
    if (Named == 0) {
      D.Name = Words ? W[0].Text.str() : "omp";
      D.Kind = Construct::Unsupported;
      return D;
    }
    D.Name = getOpenMPDirectiveName(D.DirectiveKind).str();
    D.Kind = model::classify(D.DirectiveKind);
    size_t K = Named;
    if (K < W.size() && W[K].is(tok::l_paren)) { // critical(name), flush(list), ...
      size_t Close = closing(W, K);
      if (D.DirectiveKind == OMPD_critical && Close > K + 1)
        D.CriticalName = Source.slice(W[K + 1].Begin, W[Close].Begin).trim().str();
      if (D.DirectiveKind == OMPD_flush && Close > K) { // Clang's implicit list clause
        model::Clause List;
        List.Kind = OMPC_flush;
        List.Text = Source.slice(W[K].Begin, W[Close].End).str();
        List.Argument = model::clauseArgument(List.Text);
        D.Clauses.push_back(std::move(List));
      }
      K = Close + 1;
    }
    // Each compiler chooses its own variant; Clang's choice is unknown here.
    D.FromMetadirective = D.DirectiveKind == OMPD_metadirective;
    if ((D.DirectiveKind == OMPD_cancel || D.DirectiveKind == OMPD_cancellation_point) &&
        K < W.size() && W[K].is(tok::raw_identifier))
      D.CancelRegion = W[K++].Text.str();
    while (K < W.size()) {
      if (W[K].is(tok::comma)) {
        ++K;
        continue;
      }
      if (!W[K].is(tok::raw_identifier)) {
        D.NotEditable = "has clauses ompp's textual parse cannot read";
        D.Kind = Construct::Unsupported;
        break;
      }
      size_t Name = K++;
      size_t Last = Name;
      if (K < W.size() && W[K].is(tok::l_paren))
        Last = closing(W, K);
      D.Clauses.push_back(clause(W, Name, Last, Source));
      K = Last + 1;
    }
    if (D.Kind == Construct::Ordered && (D.has(OMPC_depend) || llvm::any_of(D.Clauses, [](auto &C) {
                                           return llvm::StringRef(C.Text).startswith("doacross");
                                         })))
      D.Kind = Construct::OrderedDepend;
    return D;
  }

  static size_t closing(const std::vector<Tok> &W, size_t Open) {
    int Depth = 0;
    for (size_t K = Open; K < W.size(); ++K) {
      Depth += W[K].opens() ? 1 : W[K].closes() ? -1 : 0;
      if (Depth == 0)
        return K;
    }
    return W.size() - 1;
  }

  /// Clause W[Name..Last] (Last: its ')', or Name without arguments) of a
  /// pragma whose tokens have their places in Source.
  static model::Clause clause(const std::vector<Tok> &W, size_t Name, size_t Last,
                              llvm::StringRef Source) {
    model::Clause C;
    C.Kind = getOpenMPClauseKind(W[Name].Text);
    C.Text = Source.slice(W[Name].Begin, W[Last].End).str();
    C.Argument = model::clauseArgument(C.Text);
    if (Last == Name)
      return C;
    size_t First = Name + 2; // after '('
    // Top-level ':' and ',' of the argument.
    std::vector<size_t> Colons, Commas;
    for (size_t K = First; K < Last; ++K) {
      if (W[K].opens())
        K = closing(W, K);
      else if (W[K].is(tok::colon))
        Colons.push_back(K);
      else if (W[K].is(tok::comma))
        Commas.push_back(K);
    }
    if (C.Kind == OMPC_if && !Colons.empty()) {
      std::string Modifier;
      for (size_t K = First; K < Colons.front(); ++K)
        Modifier += (Modifier.empty() ? "" : " ") + W[K].Text.str();
      C.NameModifier = getOpenMPDirectiveKind(Modifier);
    }
    if (C.Kind == OMPC_reduction && !Colons.empty() && !Commas.empty() && Commas.front() < Colons.front())
      C.ReductionModifier = llvm::StringSwitch<OpenMPReductionClauseModifier>(
                                Source.slice(W[First].Begin, W[Commas.front()].Begin).trim())
                                .Case("default", OMPC_REDUCTION_default)
                                .Case("inscan", OMPC_REDUCTION_inscan)
                                .Case("task", OMPC_REDUCTION_task)
                                .Default(OMPC_REDUCTION_unknown);
    if (!model::listsVariables(C.Kind))
      return C;
    // The list follows the modifiers' ':' (reduction, lastprivate, allocate)
    // or precedes the step's or alignment's (linear, aligned).
    bool ListFirst = C.Kind == OMPC_linear || C.Kind == OMPC_aligned;
    size_t ListBegin = !ListFirst && !Colons.empty() ? Colons.back() + 1 : First;
    size_t ListEnd = ListFirst && !Colons.empty() ? Colons.front() : Last;
    if (ListBegin < ListEnd)
      C.ListPrefix = Source.slice(W[First - 1].End, W[ListBegin].Begin).str();
    size_t Item = ListBegin;
    for (size_t K = ListBegin; K <= ListEnd; ++K) {
      if (K < ListEnd && W[K].opens()) {
        K = closing(W, K);
        continue;
      }
      if (K < ListEnd && !W[K].is(tok::comma))
        continue;
      if (auto Var = variableOf(W, Item, K))
        C.Vars.push_back(*Var);
      Item = K + 1;
    }
    return C;
  }

  /// `a`, `a[i]`, `a[0:n]` (and linear's `val(a)`) name the variable a.
  static std::optional<std::string> variableOf(const std::vector<Tok> &W, size_t Begin, size_t End) {
    if (Begin >= End || !W[Begin].is(tok::raw_identifier) || W[Begin].Text == "this")
      return std::nullopt;
    if (End - Begin == 4 && W[Begin + 1].is(tok::l_paren) && W[Begin + 2].is(tok::raw_identifier) &&
        llvm::is_contained(std::initializer_list<llvm::StringRef>{"val", "ref", "uval"}, W[Begin].Text))
      return W[Begin + 2].Text.str();
    for (size_t K = Begin + 1; K < End; K = closing(W, K) + 1)
      if (!W[K].is(tok::l_square))
        return std::nullopt;
    return W[Begin].Text.str();
  }

  //===--- calls ------------------------------------------------------------===//

  /// Lock function references, and early exits (return, goto, throw) in
  /// function bodies.
  void collectCalls() {
    auto InFunction = [&](unsigned Offset) {
      return llvm::any_of(FunctionBodies, [&](Span S) { return S.contains(Offset); });
    };
    for (size_t I = 0; I < size(); ++I) {
      const Tok &T = Toks[I];
      if (!T.is(tok::raw_identifier))
        continue;
      if (InFunction(T.Begin) && (T.Text == "return" || T.Text == "goto" || T.Text == "throw"))
        Out.EarlyExits.push_back(T.Begin);
      // A call or a reference, not a member, nor the name a declaration
      // declares (after its type: `void omp_set_lock(omp_lock_t *);`).
      const Tok *Before = I > 0 ? &Toks[I - 1] : nullptr;
      bool Declared = Before && (Before->is(tok::period) || Before->is(tok::arrow) ||
                                 Before->is(tok::coloncolon) ||
                                 (Before->is(tok::raw_identifier) && Before->Text != "return"));
      if (isLockFunction(T.Text) && !Declared)
        Out.Locks.push_back({Span{T.Begin, T.End}, T.Text.str()});
    }
    llvm::sort(Out.CompoundStatements, [](Span A, Span B) { return A.Begin < B.Begin; });
  }

  struct Body {
    std::vector<std::pair<size_t, size_t>> List; // statements: first token, one past the last
    bool Complete = true;
  };

  model::UnitModel &Out;
  std::vector<Tok> Toks;
  std::vector<PragmaLine> Pragmas;
  model::LineTable Lines;
  std::vector<size_t> Match;          // index of the matching bracket
  std::map<size_t, End> Memo;         // statements already read
  std::map<size_t, Body> Bodies;      // compound statements by their '{'
  std::vector<size_t> Open;           // directives whose block is being read
  std::vector<Span> FunctionBodies;
};

/// The main file's active tokens and its active `#pragma omp` lines.  Edits
/// go next to active tokens only, so a construct may cross #if/#else lines:
/// the compile sees the branches the preprocessor chose here.
struct MainFileTokens {
  std::vector<Tok> Toks;
  std::vector<PragmaLine> Pragmas;
  std::vector<PragmaLine> FromMacros; // OpenMP directives from macros, at their expansion
};

MainFileTokens lexMainFile(const SourceManager &SM, const LangOptions &LO,
                           const PreprocessorFacts &Facts) {
  FileID Main = SM.getMainFileID();
  llvm::StringRef Text = SM.getBufferData(Main);
  Lexer Raw(SM.getLocForStartOfFile(Main), LO, Text.begin(), Text.begin(), Text.end());
  std::vector<Token> All;
  for (Token T; Raw.LexFromRawLexer(T), T.isNot(tok::eof);)
    All.push_back(T);
  auto Convert = [&](const Token &T) {
    Tok Out;
    Out.Kind = T.getKind();
    Out.Begin = SM.getFileOffset(T.getLocation());
    Out.End = Out.Begin + T.getLength();
    Out.Text = Text.slice(Out.Begin, Out.End);
    return Out;
  };
  auto Inactive = [&](unsigned Offset) {
    return llvm::any_of(Facts.Skipped, [&](Span S) { return S.Begin < Offset && Offset < S.End; });
  };
  MainFileTokens Out;
  auto WordsOf = [](PragmaLine &P, const ExpandedPragma &Expanded) {
    P.Expanded = Expanded.Text;
    for (const auto &[Kind, Place] : Expanded.Tokens)
      P.Words.push_back(
          Tok{Kind, Place.Begin, Place.End, llvm::StringRef(*P.Expanded).slice(Place.Begin, Place.End)});
  };
  for (const auto &[Offset, Expanded] : Facts.MacroOmpPragmas) {
    PragmaLine P;
    P.Text = Span{Offset, Offset};
    WordsOf(P, Expanded);
    Out.FromMacros.push_back(std::move(P));
  }
  for (size_t I = 0; I < All.size();) {
    Tok T = Convert(All[I]);
    if (!(All[I].is(tok::hash) && All[I].isAtStartOfLine())) {
      auto Macro = Facts.StatementMacros.find(T.Begin);
      T.Opaque = Macro != Facts.StatementMacros.end() || Facts.MacroPragmas.count(T.Begin);
      T.FunctionLikeMacro = Macro != Facts.StatementMacros.end() && Macro->second;
      if (!Inactive(T.Begin))
        Out.Toks.push_back(T);
      ++I;
      continue;
    }
    size_t LineEnd = I + 1;
    while (LineEnd < All.size() && !All[LineEnd].isAtStartOfLine())
      ++LineEnd;
    llvm::StringRef Name = LineEnd > I + 1 ? Convert(All[I + 1]).Text : "";
    bool Omp = Name == "pragma" && LineEnd > I + 2 && Convert(All[I + 2]).Text == "omp" &&
               Facts.ActivePragmas.count(T.Begin);
    if (Omp) {
      PragmaLine P;
      unsigned LastEnd = Convert(All[LineEnd - 1]).End;
      P.Text = Span{T.Begin, static_cast<unsigned>(std::min(Text.find('\n', LastEnd), Text.size()))};
      if (auto Expanded = Facts.ExpandedPragmas.find(T.Begin); Expanded != Facts.ExpandedPragmas.end()) {
        WordsOf(P, Expanded->second);
      } else {
        for (size_t K = I + 3; K < LineEnd; ++K)
          P.Words.push_back(Convert(All[K]));
      }
      T.Pragma = Out.Pragmas.size();
      T.End = P.Text.End;
      Out.Pragmas.push_back(std::move(P));
      Out.Toks.push_back(T);
    } else if (Name == "include" && !Inactive(T.Begin)) {
      T.Opaque = true; // its tokens are not the main file's
      Out.Toks.push_back(T);
    }
    I = LineEnd;
  }
  return Out;
}

class TextualAction : public PreprocessorFrontendAction {
public:
  TextualAction(model::UnitModel &Out, std::optional<std::string> &Failure)
      : Out(Out), Failure(Failure) {}

  bool BeginInvocation(CompilerInstance &CI) override {
    CI.getDiagnosticOpts().ShowCarets = false; // as the AST front end: no "N errors generated."
    return true;
  }

  void ExecuteAction() override {
    CompilerInstance &CI = getCompilerInstance();
    Preprocessor &PP = CI.getPreprocessor();
    const SourceManager &SM = CI.getSourceManager();
    PreprocessorFacts Facts;
    recordPreprocessorFacts(PP, Out);
    PP.AddPragmaHandler(new OmpPragmaReader(Facts));
    PP.addPPCallbacks(std::make_unique<FactsRecorder>(Facts, SM));
    PP.EnterMainSourceFile();
    Token T;
    do
      PP.Lex(T);
    while (T.isNot(tok::eof));
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    Out.Text = SM.getBufferData(SM.getMainFileID()).str();
    Out.CPlusPlus = CI.getLangOpts().CPlusPlus;
    recordLineDirectives(SM, Out);
    MainFileTokens Tokens = lexMainFile(SM, CI.getLangOpts(), Facts);
    Reader R(Out, std::move(Tokens.Toks), std::move(Tokens.Pragmas));
    R.macroDirectives(Tokens.FromMacros);
    Failure = R.read();
  }

private:
  model::UnitModel &Out;
  std::optional<std::string> &Failure;
};

} // namespace

llvm::Expected<model::UnitModel> parseMainFileTextually(llvm::StringRef File,
                                                        llvm::ArrayRef<std::string> ClangArgs,
                                                        std::optional<llvm::StringRef> Text) {
  model::UnitModel Model;
  std::optional<std::string> Failure;
  if (llvm::Error E = runClang(File, ClangArgs, std::make_unique<TextualAction>(Model, Failure), Text))
    return E;
  if (Failure)
    return llvm::createStringError(std::errc::invalid_argument, "%s: %s", File.str().c_str(),
                                   Failure->c_str());
  return Model;
}

} // namespace ompp::instrument::parse
