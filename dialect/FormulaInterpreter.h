//===- FormulaInterpreter.h - what evaluate() reads and writes -*- C++ -*-===//
//
// The services a formula op's `evaluate` (FormulaOpInterface) uses: its
// operands' values, the point being computed, the batch, the fields and
// sums the body reads, and the way to record its result or its failure.
// The evaluator (lib/Eval/Formula.cpp) implements it; the dialect depends
// only on this abstract form.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_FORMULAINTERPRETER_H
#define IMETA_DIALECT_FORMULAINTERPRETER_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace imeta {

class FormulaInterpreter {
public:
  virtual ~FormulaInterpreter() = default;

  /// The value computed for `v` (an operand of the op being evaluated).
  virtual int64_t value(mlir::Value v) = 0;
  /// The value of `op`'s operand `i` (an interpreter that knows the op
  /// being evaluated answers without looking the operand up).
  virtual int64_t operand(mlir::Operation *op, unsigned i) {
    return value(op->getOperand(i));
  }
  /// Records `v` as the single result of `op`; fails where `v` does not fit
  /// the result's type (an overflow, in the evaluator's words).
  virtual mlir::LogicalResult set(mlir::Operation *op, int64_t v) = 0;
  /// Records `v` for `result` as it is (the value a region yielded).
  virtual void bind(mlir::Value result, int64_t v) = 0;
  /// Fails with `message`: the error the evaluator reports.
  virtual mlir::LogicalResult fail(const llvm::Twine &message) = 0;
  /// Fails with failure `kind` (runtime/ErrorRecord.inc's ErrorKind) of
  /// `op`, in the words the generated code uses too (FailureText.h): what
  /// the op reads (FormulaOpInterface::getFailureSubject), the value (and
  /// length), the width of an overflowing integer.
  mlir::LogicalResult failWith(int32_t kind, mlir::Operation *op,
                               int64_t value = 0, int64_t length = 0,
                               int width = 64);
  /// Runs `block` at this point; `yielded` gets its terminator's operands.
  virtual mlir::LogicalResult
  runBlock(mlir::Block &block, llvm::SmallVectorImpl<int64_t> &yielded) = 0;

  /// The point: the sequence i, its row j, the field's row r, the column,
  /// the bucket's ratio (-1 or 0 where the domain has none).
  virtual int64_t seq() = 0;
  virtual int64_t row() = 0;
  virtual int64_t globalRow() = 0;
  virtual int64_t col() = 0;
  virtual int64_t ratio() = 0;

  /// The batch: its size, a config parameter, the point's sequence's value
  /// of a scalar input and elements of a list input.
  virtual int64_t numSeqs() = 0;
  virtual int64_t config(mlir::FlatSymbolRefAttr param) = 0;
  virtual int64_t scalarInput(llvm::StringRef input) = 0;
  virtual const std::vector<int64_t> &list(llvm::StringRef input) = 0;
  /// A config list parameter's values.
  virtual llvm::ArrayRef<int64_t> configList(llvm::StringRef param) = 0;
  /// The ratios of a set, ascending.
  virtual llvm::ArrayRef<int64_t> ratios(mlir::FlatSymbolRefAttr set) = 0;

  /// Field `field` at this point (its sequence, row or the batch, as its
  /// domain says, in this bucket where it is bucketed).
  virtual mlir::LogicalResult fieldAt(mlir::FlatSymbolRefAttr field,
                                      int64_t &out) = 0;
  /// Every entry of prefix sum or seq field `def` in this bucket (a seq
  /// field's: one per sequence).
  virtual mlir::LogicalResult entries(mlir::FlatSymbolRefAttr def,
                                      llvm::ArrayRef<int64_t> &out) = 0;

  /// Value `column` of the field being computed at the previous sequence
  /// (0 at the first): imeta.prev.
  virtual mlir::LogicalResult previous(int64_t column, int64_t &out) = 0;
  /// " (RULE)" after an overflow's message, where the spec names the rule.
  virtual std::string overflowSuffix() = 0;
  /// " at FILE:LINE:COL" of `op`, or nothing.
  static std::string locationOf(mlir::Operation *op);
};

} // namespace imeta

#endif // IMETA_DIALECT_FORMULAINTERPRETER_H
