//===- RangeRuleBuilder.h - what inferRange() prints into ------*- C++ -*-===//
//
// The services a formula op's `inferRange` (FormulaOpInterface) uses to
// print its part of a batch's int32 proof: closed integer ranges over the
// batch, in the C++ of the generated host source (`Range`, `r_add`, ...,
// lib/Lowering/RangeProof.cpp's kRangeHelpers). Each op gives its result's
// range from its operands' and states what the fast fill instantiation
// drops (a result fits i32, a divisor is never zero). lib/Lowering's range
// printer implements it.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_RANGERULEBUILDER_H
#define IMETA_DIALECT_RANGERULEBUILDER_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace imeta {

class RangeRuleBuilder {
public:
  virtual ~RangeRuleBuilder() = default;

  /// The range expression of operand `i` of `op`.
  virtual std::string operand(mlir::Operation *op, unsigned i) = 0;
  /// Declares the range of `v` as `expr`; returns its name.
  virtual std::string defineValue(mlir::Value v, const std::string &expr) = 0;
  /// Declares the range of `op`'s single result.
  std::string define(mlir::Operation *op, const std::string &expr) {
    return defineValue(op->getResult(0), expr);
  }
  /// The range of a read of the batch (`expr` scans it): computed once
  /// per proof however many ops read it.
  virtual mlir::LogicalResult leaf(mlir::Operation *op,
                                   const std::string &expr) = 0;
  /// The proof holds only if `condition` (a C++ bool) does.
  virtual void require(const std::string &condition) = 0;
  /// The fast instantiation drops the check that `op`'s i32 (or i1) result
  /// fits: requires that its range `name` shows it.
  void proveFits(mlir::Operation *op, const std::string &name);
  /// The range of any value of `op`'s result type.
  static std::string typeRange(mlir::Operation *op);

  /// Prints the proof of `block`; `yielded` gets its results' ranges.
  virtual mlir::LogicalResult
  runBlock(mlir::Block &block, llvm::SmallVectorImpl<std::string> &yielded) = 0;
  /// Whether `v` depends on a list without a declared bound (checked at
  /// run time in both instantiations: no range for it).
  virtual bool unproven(mlir::Value v) = 0;

  /// The ranges of the point (sequence, row, field row, column, ratio).
  virtual std::string seq() = 0;
  virtual std::string row() = 0;
  virtual std::string globalRow() = 0;
  virtual std::string col() = 0;
  virtual std::string ratio() = 0;
  /// The range of a host-stage array (seq or scalar field, prefix sum).
  virtual std::string hostArray(mlir::Operation *def) = 0;
  /// The range of a rows field read at the current row.
  virtual std::string rowsField(mlir::Operation *field) = 0;
  /// The generated code's index of ratio set `set`.
  virtual unsigned setId(mlir::FlatSymbolRefAttr set) = 0;
};

} // namespace imeta

#endif // IMETA_DIALECT_RANGERULEBUILDER_H
