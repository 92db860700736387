//===- Evaluator.h - the reference evaluator of a spec ----------*- C++ -*-===//
//
// Runs a verified spec on a batch: checks the rules, then computes fields
// point by point from their formulas. It knows no field by name; it is the
// executable definition of a spec and the oracle for generated code.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_EVAL_EVALUATOR_H
#define IMETA_EVAL_EVALUATOR_H

#include "dialect/IMetaOps.h"
#include "lib/Eval/Batch.h"
#include "lib/Analysis/PathPlan.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace imeta {

/// The values of one field (or prefix sum) in one ratio bucket.
struct FieldValue {
  Domain domain = Domain::scalar;
  unsigned width = 1;   ///< values per point (yield arity, or column count)
  bool hasCols = false; ///< a `cols` field: [rows, width] whatever the width
  bool isBool = false;  ///< an i1 field, printed as true/false
  bool isPrefix = false;
  std::vector<int64_t> data; ///< row-major, `width` values per point
  size_t points = 0;         ///< rows (a `cols` field may have width 0)
  size_t numPoints() const { return points; }
};

/// The most values one field may hold in the evaluator (2 GiB of int64):
/// past it a batch gets an error, not an out-of-memory crash.
constexpr int64_t kMaxFieldValues = int64_t(1) << 28;
/// The most values the evaluator holds in all the fields of one batch
/// together (32 MiB of int64), as the generated driver does: many fields
/// each under kMaxFieldValues (16 sequences of 2^24 block-table columns)
/// get an error, not an out-of-memory abort, and the largest batch it
/// takes is evaluated and printed well within a second (2^27 took tens
/// under the sanitizers).
constexpr int64_t kMaxHeldValues = int64_t(1) << 22;

/// Whether `rows` points of `width` values fit in kMaxFieldValues.
inline bool holdsRows(int64_t rows, unsigned width) {
  return rows <= kMaxFieldValues / std::max<int64_t>(width, 1);
}
/// Pads `value` with `fill` up to `rows` points (a declared fill; the
/// caller checked holdsRows).
void padPoints(FieldValue &value, int64_t rows, int64_t fill);

/// One output of a path: its name (with `.n` for a ratio bucket) and value.
struct OutputValue {
  std::string name;
  const FieldValue *value;
};

/// The failure of a field that another one reads: its words name the field
/// where it happened, so the readers pass it on as it is (a chain of N
/// fields fails in one line, not in N nested ones).
class ReadFailure : public llvm::ErrorInfo<ReadFailure> {
public:
  static char ID;
  explicit ReadFailure(std::string text) : text(std::move(text)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string text;
};

/// The reference evaluator for one batch.
class Evaluator {
public:
  Evaluator(SpecOp spec, const Batch &batch);

  /// Checks the rules of `path` and computes every field it needs, in the
  /// one order in which every backend reports the first failure
  /// (README.md, "Which failure is first"): the path's plan (lib/Analysis/PathPlan.h), its
  /// host stage first (each rule, spec's then path's, after the fields it
  /// reads; then the other fields that are not `rows` fields, as the
  /// outputs reach them; a field bucket by bucket, sequence by sequence),
  /// then its `rows` fields, the failure at the lowest sequence first and
  /// within a sequence in the fill's order (row space, row, field,
  /// bucket, column). A path that resolves inputs (imeta.resolve) first
  /// checks its rules that read state on the batch as given, then
  /// resolves the batch (lib/Eval/Resolve.cpp): every field from then on
  /// is the resolved batch's. The first failure is a one-line error naming
  /// the field or rule, the sequence (or bucket) and what failed.
  llvm::Error checkPath(PathOp path);
  /// checkPath in its two parts: the host stage (through the columns of
  /// the `cols` fields), then the `rows` fields. A caller checks the
  /// buffers' capacities between them (imeta-run --capacity).
  llvm::Error checkHostStage(PathOp path);
  llvm::Error checkFills(PathOp path);
  /// The rows output `out` has in bucket `ratio` (its `rows(@len)`, else
  /// its field's: N, N + 1 for an exclusive sum, a rows field's row
  /// count), from the host stage's values; -1 for a scalar output.
  llvm::Expected<int64_t> outputRows(OutputOp out, int64_t ratio);

  /// The values of a field or prefix sum in bucket `ratio` (0 when the
  /// field is not bucketed). Computed once, then cached.
  llvm::Expected<const FieldValue *> evaluate(mlir::Operation *def,
                                              int64_t ratio);

  /// The outputs of `path`, in order, bucketed ones expanded to `NAME.n`.
  /// With a non-empty `only`, just those whose name or base name is listed;
  /// an unknown name is an error.
  llvm::Expected<std::vector<OutputValue>>
  evaluatePath(PathOp path, llvm::ArrayRef<std::string> only = {});

  /// The ratios of a set for this batch, ascending and distinct.
  llvm::ArrayRef<int64_t> ratios(mlir::FlatSymbolRefAttr set);

  const Batch &getBatch() const { return *batch; }
  /// " (RULE)" for an int32 overflow when the spec names its rule, else "".
  std::string overflowSuffix() {
    auto rule = spec.getOverflowRule();
    return rule ? " (" + rule->str() + ")" : std::string();
  }
  int64_t numSeqs() const { return batch->sequences.size(); }
  mlir::Operation *lookup(mlir::FlatSymbolRefAttr sym) {
    mlir::Operation *&op = symbolCache[sym];
    if (!op)
      op = symbols.lookup(sym.getValue());
    return op;
  }
  /// A scalar config value (cached: formulas read them at every point).
  int64_t config(mlir::StringAttr name) {
    auto [it, inserted] = configCache.try_emplace(name, 0);
    if (inserted)
      it->second = batch->config.lookup(name.getValue());
    return it->second;
  }

private:
  /// evaluate() of one field whose reads are evaluated (or failed) already.
  llvm::Expected<const FieldValue *> evaluateOne(mlir::Operation *def,
                                                 int64_t ratio);
  /// The fields and sums `root` reads in bucket `ratio`, transitively, not
  /// yet evaluated: dependencies first.
  llvm::SmallVector<std::pair<mlir::Operation *, int64_t>>
  unevaluatedDependencies(mlir::Operation *root, int64_t ratio);
  llvm::Error evaluateField(FieldOp field, int64_t ratio, FieldValue &out);
  llvm::Error columnsOf(FieldOp field, int64_t ratio, FieldValue &out,
                        int64_t &numCols, const FieldValue *&live);
  llvm::Error evaluatePrefix(PrefixSumOp sum, int64_t ratio, FieldValue &out);
  llvm::Error checkRule(RequireOp rule);
  /// The plan of `path` (its recorded schedule, else the default one),
  /// made once.
  llvm::Expected<const PathPlan *> planOf(PathOp path);
  /// Each sequence's live columns of `field` within its `numCols`.
  llvm::Error checkLiveColumns(FieldOp field, const FieldValue *live,
                               int64_t numCols);
  /// The buckets of a field over `set`, in the batch's order; {0} if none.
  llvm::SmallVector<int64_t, 8> bucketsOf(mlir::FlatSymbolRefAttr set);
  /// The host stage's end: each row space's counts (none negative), then
  /// the columns of its `cols` fields (a width not negative, the live
  /// columns within it), as the generated host stage checks them.
  llvm::Error checkRowStarts(llvm::ArrayRef<RowSpace> spaces);
  /// checkPath's last part: the `rows` fields of the plan's row spaces.
  llvm::Error checkRowsFields(llvm::ArrayRef<RowSpace> spaces);
  /// Resolves `path`'s inputs into `resolved` and evaluates on it from
  /// then on (Resolve.cpp).
  llvm::Error resolveInputs(PathOp path);
  /// `value` padded with the output's fill to its `rows(@len)` rows.
  llvm::Expected<const FieldValue *> padToRows(OutputOp out,
                                              const FieldValue &value);

  SpecOp spec;
  const Batch *batch;
  std::unique_ptr<Batch> resolved;
  mlir::SymbolTable symbols;
  /// The helpers' lookups (getRatios, readInput...) while an entry point
  /// runs (SymbolLookupScope): the evaluator adds no symbol.
  mlir::SymbolTableCollection tables;
  std::map<std::pair<mlir::Operation *, int64_t>, std::unique_ptr<FieldValue>>
      cache;
  /// Completed values by (field, bucket): the hot path of imeta.get.
  llvm::DenseMap<std::pair<mlir::Operation *, int64_t>, const FieldValue *>
      done;
  llvm::DenseMap<mlir::Attribute, mlir::Operation *> symbolCache;
  /// The error of each (field, bucket) that failed, in its words.
  llvm::DenseMap<std::pair<mlir::Operation *, int64_t>, std::string>
      failures;
  /// Where a `rows` field failed at a point: its sequence, the row within
  /// the sequence and the column (-1: none).
  struct RowPoint {
    int64_t seq, row, col;
  };
  llvm::DenseMap<std::pair<mlir::Operation *, int64_t>, RowPoint> rowFailures;
  /// The plans made so far, by path.
  std::map<mlir::Operation *, PathPlan> plans;
  llvm::DenseMap<mlir::Attribute, int64_t> configCache;
  llvm::DenseMap<mlir::Attribute, std::vector<int64_t>> ratioCache;
  /// Outputs padded to their `rows(@len)`.
  std::vector<std::unique_ptr<FieldValue>> padded;
  /// Values in the completed fields and padded outputs (kMaxHeldValues).
  int64_t heldValues = 0;
  /// An error where `more` values beside those held pass kMaxHeldValues.
  llvm::Error checkHeld(int64_t more) const;
};

} // namespace imeta

#endif // IMETA_EVAL_EVALUATOR_H
