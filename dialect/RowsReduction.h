//===- RowsReduction.h - imeta.reduce of a rows field's rows ----*- C++ -*-===//
//
// `imeta.reduce KIND @X` of a rows field X (one value a row, no columns)
// is a front-end form, expanded right after the compact formulas and
// before the gathers:
//
//   - in a `seq` field, over the current sequence's rows:
//       %n = imeta.get @count(X)
//       imeta.reduce_rows KIND %n { ^bb0(%r): imeta.gather @X[%r] }
//   - in a `scalar` field or rule, over every row of the batch: the same
//     fold in a hidden seq field `X_KIND_over_rows` (for max and min, the
//     fold where the sequence has rows, else KIND's identity), reduced in
//     turn by `imeta.reduce KIND`; max and min are 0 where no sequence has
//     a row.
//
// The gathers then write X's formula in place, so the rows are computed on
// the host where the reduction needs them, and no backend orders a rows
// field before the host stage.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_ROWSREDUCTION_H
#define IMETA_DIALECT_ROWSREDUCTION_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace imeta {

/// Expands every imeta.reduce of a rows field under `root` (each verified
/// first); a located error where the field reads its global row.
mlir::LogicalResult expandRowsReductions(mlir::Operation *root);

} // namespace imeta

#endif // IMETA_DIALECT_ROWSREDUCTION_H
