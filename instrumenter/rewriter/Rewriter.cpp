//===--- Rewriter.cpp - parse -> model -> plan -> emit --------------------===//
#include "rewriter/Rewriter.h"

#include "emit/Emit.h"
#include "parse/Parse.h"
#include "parse/TextualParse.h"
#include "plan/Plan.h"
#include "rewriter/InlineHeaders.h"

#include "model/LineTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace ompp::instrument {

namespace {

/// Where the first OpenMP directive of the main file starts, if any
/// (a directive from a macro: its line).
std::optional<SourcePosition> firstDirective(const model::UnitModel &Unit) {
  model::LineTable Lines(Unit.Text);
  std::optional<SourcePosition> First;
  for (const model::Directive &D : Unit.Directives) {
    SourcePosition P = D.Pragma ? SourcePosition{Lines.line(D.Pragma->Begin),
                                                 Lines.column(D.Pragma->Begin) + 1}
                                : SourcePosition{D.Line, 1};
    if (!First || std::pair(P.Line, P.Column) < std::pair(First->Line, First->Column))
      First = P;
  }
  return First;
}

/// Parses File (or Text as File) with Clang.  With Options.TextualFallback,
/// a file Clang cannot parse is read by the textual front end instead, and
/// ClangError gets Clang's first error; once it is set, the textual front
/// end reads every later round too (Clang's error stands for the unit).
llvm::Expected<model::UnitModel> parseUnit(llvm::StringRef File, llvm::ArrayRef<std::string> Args,
                                           std::optional<llvm::StringRef> Text,
                                           const RewriteOptions &Options, std::string &ClangError) {
  if (Options.TextualOnly || !ClangError.empty())
    return parse::parseMainFileTextually(File, Args, Text);
  auto Unit = parse::parseMainFile(File, Args, Text);
  if (Unit || !Options.TextualFallback)
    return Unit;
  llvm::Error NotParsed = Unit.takeError();
  if (!NotParsed.isA<FrontEndError>())
    return NotParsed;
  auto FromTokens = parse::parseMainFileTextually(File, Args, Text);
  if (!FromTokens) { // Clang's diagnostics explain more
    llvm::consumeError(FromTokens.takeError());
    return NotParsed;
  }
  llvm::handleAllErrors(std::move(NotParsed),
                        [&](const FrontEndError &E) { ClangError = E.firstError(); });
  return FromTokens;
}

} // namespace

/// Levels of headers including headers with OpenMP constructs that are inlined.
constexpr unsigned MaxInlinedHeaderDepth = 8;

std::vector<std::string> disableableFamilies() { return plan::familyNames(); }

llvm::Expected<RewriteResult> rewriteFile(llvm::StringRef File, llvm::ArrayRef<std::string> ClangArgs,
                                          const RewriteOptions &Options) {
  auto Disabled = plan::expandFamilies(Options.Disabled);
  if (!Disabled)
    return Disabled.takeError();
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "%s: %s", File.str().c_str(),
                                   Buffer.getError().message().c_str());
  RewriteResult Result;
  // The marker opens ompp's output, but tools may put lines before it
  // (license headers, `#line` or `# 1` lines): it is looked for on any line.
  llvm::StringRef Input = (*Buffer)->getBuffer();
  if (Input.startswith(InstrumentedMarker) ||
      Input.contains(("\n" + InstrumentedMarker).str())) {
    Result.Source = Input.str();
    Result.AlreadyInstrumented = true;
    return Result;
  }
  std::string UnitId = Options.UnitId.empty() ? "0" : Options.UnitId;
  for (char C : UnitId)
    if (!llvm::isDigit(C) && !(C >= 'a' && C <= 'z'))
      return llvm::createStringError(std::errc::invalid_argument,
                                     "unit id '%s' must consist of [a-z0-9]", UnitId.c_str());

  auto Unit = parseUnit(File, ClangArgs, std::nullopt, Options, Result.ClangError);
  if (!Unit)
    return Unit.takeError();
  // In the file as written (inlined headers would shift its lines).
  Result.FirstDirective = firstDirective(*Unit);
  // Headers with OpenMP constructs are inlined, and what they include may
  // bring more: one round per level of nesting.
  std::vector<std::string> Args(ClangArgs.begin(), ClangArgs.end());
  for (unsigned Round = 0; Round < MaxInlinedHeaderDepth && !Unit->HeaderPragmas.empty(); ++Round) {
    auto Inlined = inlineHeaders(*Unit, File);
    if (!Inlined)
      break;
    size_t EarlierQuoteDirs = Result.QuoteDirs.size();
    for (const std::string &Dir : Inlined->QuoteDirs)
      if (!llvm::is_contained(Result.QuoteDirs, Dir)) {
        Result.QuoteDirs.push_back(Dir);
        Args.insert(Args.end(), {"-iquote", Dir});
      }
    // Clang's parse of the main file skips the bodies of header functions:
    // inlined, they may hold code only GCC accepts (the textual front end
    // then reads the unit, as for the main file's own such code).
    auto Next = parseUnit(File, Args, llvm::StringRef(Inlined->Text), Options, Result.ClangError);
    if (!Next) {
      std::string Why = "the file does not compile with it inlined";
      llvm::handleAllErrors(Next.takeError(), [&](const FrontEndError &E) {
        Why = "Clang rejects its code (" + E.firstError() + ")";
      }, [](const llvm::ErrorInfoBase &) {});
      for (model::HeaderDirectives &H : Unit->HeaderPragmas)
        H.NotInlined = Why;
      // The unit of the earlier rounds is kept, with the directories its
      // inlined headers need.
      Result.QuoteDirs.resize(EarlierQuoteDirs);
      break;
    }
    Unit = std::move(Next);
  }
  for (model::HeaderDirectives &H : Unit->HeaderPragmas)
    if (H.NotInlined.empty())
      H.NotInlined = "it is included " + std::to_string(MaxInlinedHeaderDepth) +
                     " or more levels deep";
  plan::PlanOptions PlanOpts;
  PlanOpts.Opari2Compatible = Options.Opari2Compatible;
  PlanOpts.KeepUntied = Options.KeepUntied;
  PlanOpts.TimeTrivial = Options.TimeTrivial;
  PlanOpts.Disabled = std::move(*Disabled);
  PlanOpts.FileName = File.str();
  auto Plan = plan::makePlan(*Unit, PlanOpts);
  if (!Plan)
    return Plan.takeError();
  emit::EmitOptions EmitOpts;
  EmitOpts.Opari2Compatible = Options.Opari2Compatible;
  EmitOpts.UnitId = UnitId;
  EmitOpts.FileName = File.str();
  EmitOpts.Marker = InstrumentedMarker.str();
  auto Source = emit::emit(*Unit, *Plan, EmitOpts);
  if (!Source)
    return Source.takeError();
  Result.Source = std::move(*Source);
  Result.NumRegions = Plan->Regions.size();
  Result.NumWarnings = Plan->NumWarnings;
  return Result;
}

} // namespace ompp::instrument
