//===- ColumnInvariants.h - what a column loop computes before it -*- C++ -*-=//
//
// A `cols` field's formula runs at every column of every row of a
// sequence's bucket. The reads in it that are the same at all of them and
// cannot fail (FormulaOpInterface::isBucketInvariantRead: a config
// parameter, a scalar input, the ratio, a host-stage field) are computed
// once before the loop: the loop's stores to the row would otherwise force
// the compiler to reload each at every value.
//
// A 32-bit division by such a value divides by a divider (a multiply and a
// shift, runtime/IntegerOps.inc) made once: the context holds one for each
// config parameter and ratio (made by a GPU stage once a step), and the
// loop prepares one before it for each other divisor (a scalar field's is
// copied out of the context; a sequence's value's is made).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_ANALYSIS_COLUMNINVARIANTS_H
#define IMETA_ANALYSIS_COLUMNINVARIANTS_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/SetVector.h"

namespace imeta {

struct ColumnInvariants {
  /// The reads computed once before the loop, in program order.
  llvm::SetVector<mlir::Operation *> reads;
  /// The divisors of 32-bit divisions and remainders the loop prepares a
  /// divider for, in program order: results of `reads` that are not a
  /// config parameter or the ratio.
  llvm::SetVector<mlir::Value> loopDividers;
};

ColumnInvariants columnInvariants(FieldOp field);

/// Whether `op` is a 32-bit signed division or remainder (the ones a
/// divider computes).
bool isDivision32(mlir::Operation *op);

} // namespace imeta

#endif // IMETA_ANALYSIS_COLUMNINVARIANTS_H
