//===--- Context.h - what a directive handler may do ------------*- C++ -*-===//
//
// Handlers (plan/Handlers.cpp) see one directive at a time and describe its
// instrumentation through this interface: allocate a region, insert code
// before/after the construct or its block, replace the pragma.  Each call
// checks that the place exists in the file (not inside a macro); a handler
// asks first (can*) and degrades with a note when it does not.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_PLAN_CONTEXT_H
#define OMPP_INSTRUMENTER_PLAN_CONTEXT_H

#include "plan/Plan.h"

namespace ompp::instrument::plan {

class Context {
public:
  Context(const model::UnitModel &Unit, const PlanOptions &Options, Plan &Out)
      : Unit(Unit), Options(Options), Out(Out), Lines(Unit.Text) {}

  const model::UnitModel &Unit;
  const PlanOptions &Options;

  /// Creates the region of directive Index (its handle is "ompp_region(N)").
  unsigned region(size_t Index, llvm::StringRef Type);
  /// A region of code that is no directive of its own: a section without
  /// a `section` directive, a lock's init call.
  unsigned regionAt(model::Span S, llvm::StringRef Type);
  /// The handle number of an already planned directive (sections for section).
  std::optional<unsigned> regionOf(size_t Index) const;
  Region &regionData(unsigned N) { return Out.Regions[N]; }
  static std::string handle(unsigned N) { return "ompp_region(" + std::to_string(N) + ")"; }
  static std::string ctc(unsigned N) { return "ompp_ctc(" + std::to_string(N) + ")"; }
  /// The name of a local variable that ompp's code for region N declares
  /// ("pomp2_old_task_3"): the region's number makes it unique in the file,
  /// so the code of nested constructs never shadows an outer construct's
  /// (a -Wshadow -Werror build stays clean), and stable across runs.
  static std::string local(llvm::StringRef Role, unsigned N) { return Role.str() + "_" + std::to_string(N); }

  // Insertion places of directive D; Depth orders edits at one offset:
  // openings outer-first, closings inner-first.
  void before(const model::Directive &D, std::string Code) { insert(D.Whole->Begin, 4 * D.Depth, false, Code, D); }
  void after(const model::Directive &D, std::string Code) { insert(D.Whole->End, 4 * D.Depth, true, Code, D); }
  void blockBegin(const model::Directive &D, std::string Code) { insert(D.Block->Begin, 4 * D.Depth + 1, false, Code, D); }
  void blockEnd(const model::Directive &D, std::string Code) { insert(D.Block->End, 4 * D.Depth + 1, true, Code, D); }
  void wrapInner(const model::Directive &D, model::Span S, std::string Open, std::string Close) {
    insert(S.Begin, 4 * D.Depth + 2, false, Open, D);
    insert(S.End, 4 * D.Depth + 2, true, Close, D);
  }
  void replacePragma(const model::Directive &D, std::string Text);
  void replace(model::Span S, std::string Text, bool Framed, std::string Origin);

  void warn(unsigned Line, const std::string &Message);
  /// A warning at a main-file offset, named by the file and line the compiler
  /// reports there (an inlined header's, after a `#line`).
  void warnAt(unsigned Offset, const std::string &Message);
  void note(unsigned Line, const std::string &Message);
  std::string where(const model::Directive &D) const;

  bool inNoInstrumentZone(unsigned Offset) const;
  /// A cancel or cancellation point is nested in directive Index (its
  /// construct may then not be made nowait).
  bool containsCancellation(size_t Index) const;
  /// Directive Index may see a cancellation: one is nested in it or in the
  /// parallel region it binds to (its implicit barrier is then a
  /// cancellation point that a barrier of ours must not replace).
  bool mayBeCancelled(size_t Index) const;
  void setNoInstrumentZones(std::vector<model::Span> Zones) { NoInstrument = std::move(Zones); }

  const model::LineTable &lines() const { return Lines; }
  Plan &plan() { return Out; }

private:
  void insert(unsigned Offset, unsigned DepthKey, bool Closing, std::string Code,
              const model::Directive &D);

  Plan &Out;
  model::LineTable Lines;
  std::map<size_t, unsigned> RegionOfDirective;
  std::vector<model::Span> NoInstrument;
};

/// One handler per construct family.
using Handler = void (*)(size_t Index, const model::Directive &D, Context &Ctx);
struct HandlerEntry {
  model::Construct Kind;
  const char *Family;          // name used by --disable
  bool NativeOnly;             // beyond OPARI2: skipped in --opari2-compatible mode
  Handler Plan;
};
llvm::ArrayRef<HandlerEntry> handlerTable();

/// Adds the has<Clause>=... CTC keys of D's clauses to R (plan/Ctc.cpp).
void addClauseKeys(Region &R, const model::Directive &D, bool Opari2Compatible);

/// Text as a CTC value: '*' (the separator) written "%2A", '%' "%25".
std::string ctcEscaped(llvm::StringRef Text);

/// The function=<qualified name> key of a region whose code is at Offset of
/// the main file (ompp's own key: not in --opari2-compatible mode).
void addFunctionKey(Region &R, const model::UnitModel &Unit, unsigned Offset, bool Opari2Compatible);

/// The POMP2 user-region and lock planning (plan/Handlers.cpp).
/// Fails on a `#pragma pomp inst` outside a function body.
llvm::Error planUserRegions(Context &Ctx);
void planLocks(Context &Ctx);

} // namespace ompp::instrument::plan

#endif
