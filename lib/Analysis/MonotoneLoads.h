//===- MonotoneLoads.h - loads a column loop checks once per row -*- C++ -*-=//
//
// A `cols` field's formula reads a list at an index computed from its
// column. Checked per value, each read costs the GPU column step a
// compare, a branch and a convergence barrier around the failure record
// (measurable in an expansion through the block table: bench/HISTORY.md).
// Where the index is a monotone
// function of the column, and the columns that execute the read are an
// interval of the row, the interval's two ends bound every index the
// row reads: one check a row (per warp that takes tiles of it).
//
// Monotone: built from the column by adding or subtracting values that
// do not depend on it, multiplying or dividing (truncating) by such a
// value (ColumnTrend.h); an index the same at every column is too. In the
// fast instantiation every i32 result at an executed point fits i32 (the
// range proof, or the host's checked dry run), so the C++ values equal the
// mathematical ones and stay monotone.
//
// The executed columns: the read sits at the top of the formula or in the
// `then` region of `scf.if`s whose conditions are `col < X`, each X
// independent of the column and computed at the top of the formula (at
// every column): the interval [0, min(cols, X...)). Both ends are columns
// that execute the read, so evaluating the index there fails only where
// the formula would.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_ANALYSIS_MONOTONELOADS_H
#define IMETA_ANALYSIS_MONOTONELOADS_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/SmallVector.h"

namespace imeta {

/// A read whose index is monotone over the interval of columns that
/// execute it.
struct MonotoneLoad {
  LoadOp load;
  /// The exclusive upper column bounds of its enclosing branches.
  llvm::SmallVector<mlir::Value, 2> bounds;
};

/// The reads of `field`'s formula that qualify, in program order.
llvm::SmallVector<MonotoneLoad> monotoneLoads(FieldOp field);

} // namespace imeta

#endif // IMETA_ANALYSIS_MONOTONELOADS_H
