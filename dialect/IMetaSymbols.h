//===- IMetaSymbols.h - resolving a spec's symbols --------------*- C++ -*-===//
//
// Lookups shared by the verifiers, the passes and the evaluator: what a
// formula op's context is, and which ratio sets contain which.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_IMETASYMBOLS_H
#define IMETA_DIALECT_IMETASYMBOLS_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/SetVector.h"

namespace imeta {

/// Where a formula op is evaluated: the domain, bucketing and columns of the
/// enclosing field or rule.
struct FormulaContext {
  mlir::Operation *owner = nullptr; ///< the FieldOp or RequireOp
  Domain domain = Domain::scalar;
  mlir::FlatSymbolRefAttr count, ratios, cols;
};

/// The context of an op nested (at any depth) in a field or rule body.
FormulaContext getFormulaContext(mlir::Operation *op);

/// While a scope is alive, symbol lookups on this thread (lookupSymbol,
/// lookupSpecSymbol and every helper below) answer from `tables`, MLIR's
/// cached symbol tables, in O(1) instead of scanning the spec's body: a spec
/// of S symbols is verified, analysed and emitted in O(S), not O(S^2). Open
/// one only around code that adds or removes no symbol (verification,
/// analyses, the evaluator, emission); scopes nest.
class SymbolLookupScope {
public:
  explicit SymbolLookupScope(mlir::SymbolTableCollection &tables)
      : SymbolLookupScope(&tables) {}
  /// Null: lookups scan the spec (UncachedSymbolLookups).
  explicit SymbolLookupScope(mlir::SymbolTableCollection *tables);
  ~SymbolLookupScope();
  SymbolLookupScope(const SymbolLookupScope &) = delete;
  SymbolLookupScope &operator=(const SymbolLookupScope &) = delete;

private:
  mlir::SymbolTableCollection *previous;
};

/// A SymbolLookupScope with its own tables.
class CachedSymbolLookups {
public:
  CachedSymbolLookups() : scope(tables) {}

private:
  mlir::SymbolTableCollection tables;
  SymbolLookupScope scope;
};

/// Lookups that scan the spec while alive, whatever scope encloses them:
/// for code that adds or removes symbols (expansions, resolve inlining).
class UncachedSymbolLookups {
public:
  UncachedSymbolLookups() : scope(nullptr) {}

private:
  SymbolLookupScope scope;
};

/// The op `sym` names in the symbol table nearest `from` (the spec), or
/// null: cached inside a SymbolLookupScope, a scan of the spec otherwise.
mlir::Operation *lookupSymbol(mlir::Operation *from,
                              mlir::FlatSymbolRefAttr sym);
mlir::Operation *lookupSymbol(mlir::Operation *from, mlir::StringAttr sym);

/// Looks `sym` up in the spec enclosing `from`; null when it is not an `OpT`.
template <typename OpT>
OpT lookupSpecSymbol(mlir::Operation *from, mlir::FlatSymbolRefAttr sym) {
  if (!sym)
    return nullptr;
  return llvm::dyn_cast_or_null<OpT>(lookupSymbol(from, sym));
}

/// True if, for every batch, each ratio of `inner` is one of `outer`'s
/// (null meaning "not bucketed": contained only in itself).
bool ratioSetContains(mlir::Operation *from, mlir::FlatSymbolRefAttr outer,
                      mlir::FlatSymbolRefAttr inner);

/// The most buckets a set holds in one batch (the generated code's
/// kMaxRatios): the ratios of a set or union, the indices of an axis.
inline constexpr int kMaxBuckets = 16;

/// Whether `def` is a set fields are bucketed by (`over`): a ratio set,
/// a union of them, or an axis.
bool isBucketSet(mlir::Operation *def);

/// The bucketing of the values a symbol names: a field's `over` set, or a
/// prefix sum's source's.
mlir::FlatSymbolRefAttr getRatios(mlir::Operation *fieldOrPrefix);

/// The attribute a lowering puts on a field or prefix sum it made for one
/// the user wrote: the user's name, which its failures give.
inline constexpr llvm::StringLiteral kReportedAsAttr = "imeta.reported_as";

/// The name failures give field or prefix sum `def`: the user's one it
/// stands for (kReportedAsAttr), else its own.
llvm::StringRef reportedName(mlir::Operation *def);

/// Checks that values bucketed by `used` can be read from a context bucketed
/// by `reader`; emits an error on `user` otherwise.
mlir::LogicalResult verifyRatioUse(mlir::Operation *user,
                                   mlir::FlatSymbolRefAttr reader,
                                   mlir::FlatSymbolRefAttr used,
                                   mlir::FlatSymbolRefAttr usedSym);

/// The symbols a field, rule, prefix sum or ratio union reads, in program
/// order (a field's count, live and cols, then what its formula's ops read
/// (FormulaOpInterface::getFieldDependencies); a sum's source; a union's
/// members): the edges of the dependency graph
/// the verifier checks for cycles and paths are scheduled by.
llvm::SmallVector<mlir::FlatSymbolRefAttr> symbolDependencies(mlir::Operation *op);

/// The C++ name of an output: its name with each '.' (a nested result,
/// `nums.prefill`) as '_'.
std::string outputIdentifier(llvm::StringRef name);
/// The output a printed name belongs to: `name` without a bucket's `.n`.
llvm::StringRef outputBaseName(llvm::StringRef name);

/// A symbol name no op of `spec` has, starting with `base` (`base`, then
/// `base_2`, ...): for what a pass adds.
std::string freshSymbolName(SpecOp spec, const std::string &base);

/// The input a formula op reads (imeta.get_input, load, length, count), or
/// null.
InputOp readInput(mlir::Operation *op);

/// Whether some state input is read at `in` (its `slot`).
bool isSlotInput(InputOp in);

/// The inputs the fields, prefix sums and rules `roots` read, in their
/// bodies or through the fields and sums they read, added to `inputs`; each
/// op walked once.
void collectInputsRead(llvm::ArrayRef<mlir::Operation *> roots,
                       llvm::SetVector<mlir::Operation *> &inputs);

/// Whether a field, prefix sum or rule reads a state input (one with a
/// `slot`) or a slot input, in its body or through the fields and sums it
/// reads.
bool readsState(mlir::Operation *op);

/// True for the ops a field or rule body may hold: those that implement
/// FormulaOpInterface (imeta's formula ops; the arith integer ops and
/// scf.if through registerFormulaModels) and the regions' terminators.
bool isFormulaOp(mlir::Operation *op);

/// A path's outputs in order, its base path's first, overrides applied.
llvm::SmallVector<OutputOp> getPathOutputs(PathOp path);

/// The optional config parameters and inputs a path's batches must give
/// (`needs`, its bases' first): ConfigOp and InputOp ops.
llvm::SmallVector<mlir::Operation *> getPathNeeds(PathOp path);

/// A path's input resolutions (imeta.resolve), its bases' first, one per
/// input (a later one replaces an earlier one's).
llvm::SmallVector<ResolveOp> getPathResolves(PathOp path);

/// A path's rules in order, its base path's first.
llvm::SmallVector<RequireOp> getPathRules(PathOp path);

} // namespace imeta

#endif // IMETA_DIALECT_IMETASYMBOLS_H
