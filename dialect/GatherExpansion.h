//===- GatherExpansion.h - imeta.gather as the gathered formula -*- C++ -*-===//
//
// `imeta.gather @X[%u]` (SPEC-variants.md §2.2, one row) is a front-end
// op like a compact formula: expanded, right after the compact formulas,
// into X's own formula at row u of the current sequence, so that the
// passes, the evaluator and every backend see only ordinary ops:
//
//   %v = scf.if (u < 0) { pad: 0 or false }
//        else { %jj = imeta.check_index %u, count(i), "the rows of 'X'"
//               X's body, its row index replaced by %jj and each rows
//               field it reads gathered at %jj in turn }
//
// Recomputing a row where it is gathered needs no ordering between the
// two row spaces (the GPU's one launch, one CTA per sequence, stays) and
// no buffer for X.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_GATHEREXPANSION_H
#define IMETA_DIALECT_GATHEREXPANSION_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace imeta {

/// Expands every imeta.gather under `root` (each verified first: a rows
/// field, readable from where it is gathered); a located error where one
/// is not, or where the field reads its global row.
mlir::LogicalResult expandGathers(mlir::Operation *root);

} // namespace imeta

#endif // IMETA_DIALECT_GATHEREXPANSION_H
