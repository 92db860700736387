//===- ColumnTrend.h - how values vary with the column ---------*- C++ -*-===//
//
// A `cols` field's formula is evaluated at every column of a row. The
// column loop can do better than evaluate each value where it knows how a
// value varies with the column: checked once per row where it is
// monotone (MonotoneLoads.h), branched on once per step where it is the
// same at every column (ColumnSplit.h).
//
// A value's trend is built from the column (`up`) by adding or
// subtracting values of other trends, and multiplying or dividing
// (truncating) by column-invariant values (`monotone`: the direction
// depends on the sign). Ops with regions and list reads are not followed
// (`none`): their values are not known at another column. Each op says
// how it varies (FormulaOpInterface::columnTrend, movesByOneColumn).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_ANALYSIS_COLUMNTREND_H
#define IMETA_ANALYSIS_COLUMNTREND_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/DenseMap.h"

namespace imeta {

/// The trends of one formula's values, memoized.
class ColumnTrends {
public:
  Trend of(mlir::Value v);
  /// Whether `v` is the column plus or minus column-invariant values: one
  /// more at each next column.
  bool movesByOne(mlir::Value v);

private:
  llvm::DenseMap<mlir::Value, Trend> memo;
};

/// Whether `op` sits directly in the body of `field` (not in a branch):
/// evaluated at every column.
bool atTop(mlir::Operation *op, FieldOp field);

} // namespace imeta

#endif // IMETA_ANALYSIS_COLUMNTREND_H
