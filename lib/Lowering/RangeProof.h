//===- RangeProof.h - the per-batch int32 proof of fill formulas -*- C++ -*-===//
//
// Every fill function is emitted twice over one template parameter kChk:
//   checked (kChk = true): every i32 result is computed in 64 bits and
//     checked, divisors are guarded, as the evaluator does;
//   fast (kChk = false): i32 values are int32_t and unchecked.
// The host picks the fast instantiation for a batch when an interval
// evaluation of every fill formula over the batch's extremes (config
// values, the ranges of the inputs and of the host-stage values, the
// row, column and sequence index ranges, the ratio sets) proves that no
// i32 result can leave i32 and no divisor can be zero. It costs
// O(sequences) per batch and, when it fails, the batch runs checked and
// gets the evaluator's exact error.
//
// The elements of a list input with a declared bound (a rule) are scanned
// by the host's input check, which records their range. Values computed
// from the elements of other lists (`imeta.load`, and what is computed
// from them) have no batch-wide bound: they are "list-dependent" and stay
// checked (64 bits) in both instantiations. Loads stay bounds-checked in
// both.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_RANGEPROOF_H
#define IMETA_LOWERING_RANGEPROOF_H

#include "lib/Lowering/FormulaEmitter.h"

namespace imeta {

/// The ranges of a formula's leaves, as C++ expressions of type `Range`
/// (see the generated host source).
struct RangeScope {
  std::string seq, row, globalRow, col, ratio;
  /// The range of a rows field (over all rows and buckets).
  llvm::function_ref<std::string(FieldOp)> rowsField;
  /// The range of a host-stage array (a seq or scalar field, a prefix sum).
  llvm::function_ref<std::string(mlir::Operation *)> hostArray;
  /// The proof's leaf expressions so far, by the name that holds each:
  /// each distinct one (a scan of the batch) is computed once per proof.
  llvm::StringMap<std::string> *leaves = nullptr;
  /// Rewrites a leaf's expression (a device proof scans the batch with its
  /// lanes: `ln.span(...)`); null: as written.
  llvm::function_ref<std::string(const std::string &)> leafText;
  /// A device proof's scans of the batch, done by the lanes together (one
  /// reduction for all): a leaf whose rewritten text starts with
  /// "ln.part_" is named by what this returns instead of defined in place
  /// (null: every leaf is defined in place).
  llvm::function_ref<std::string(const std::string &)> collective;
};

/// Emits the interval evaluation of `body`: one `Range` per value that is
/// not list-dependent, and `ok = ok && ...;` for every check the fast
/// instantiation drops. `result` receives the range of the first yielded
/// value ("" when it is list-dependent).
mlir::LogicalResult emitRangeFormula(CodeStream &cs, EmitterState &st,
                                     mlir::Region &body,
                                     const RangeScope &scope,
                                     std::string &result);

/// The helpers the emitted proof calls (host source, internal linkage).
extern const char *const kRangeHelpers;

} // namespace imeta

#endif // IMETA_LOWERING_RANGEPROOF_H
