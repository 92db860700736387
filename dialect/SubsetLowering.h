//===- SubsetLowering.h - fields over a subset of the sequences -*- C++ -*-===//
//
// A field `seq(@cond)` has one point per sequence where the per-sequence
// condition `cond` (an i1 `seq` field) holds, in batch order: vLLM's
// prefill-only tensors after split_decodes_and_prefills. It is a
// front-end form, lowered right after the compact formulas, before the
// reductions of rows and the gathers, into what every backend runs:
//
//   - `cond_members`, a hidden i32 `seq` field `cond ? 1 : 0`;
//   - the field itself a `rows(@cond_members)` field: one row a member,
//     `i` its sequence, `r` its index among the members, `j` 0;
//   - a prefix sum @cu of such a field a `rows` field of N_cond + 1
//     entries (exclusive: a member's row, and a closing row on the last
//     sequence; N_cond entries inclusive), from a hidden prefix sum
//     `cu_over_seqs` over every sequence of the member's value or 0, which
//     the reads `cu[r]`, `cu[r + 1]` and `total(cu)` read in its place;
//     the field carries `imeta.closing_row` (an optional output of it is
//     absent at one row, as a prefix sum's at [0]).
//
// Every other read of such a field outside a field over the same subset
// is a located error that says how to read it (`sum_of`, `max_of`,
// `min_of` of it are reductions over its members).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_SUBSETLOWERING_H
#define IMETA_DIALECT_SUBSETLOWERING_H

#include "dialect/IMetaOps.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace imeta {

/// The discardable attribute of a lowered subset prefix sum: its last row
/// closes the sum, so one row means an empty subset.
inline constexpr llvm::StringLiteral kClosingRowAttr = "imeta.closing_row";

/// Lowers every field over a subset under `root`, and the prefix sums of
/// such fields; a located error for a use that has no lowering.
mlir::LogicalResult lowerSubsets(mlir::Operation *root);

/// The condition of `field`, a field over a subset (`seq(@cond)`), or a
/// located error where it is none (the verifier's and the lowering's).
mlir::FailureOr<FieldOp> subsetCondition(FieldOp field);

/// Rows of `def` (a prefix sum or field an output names) that mean its
/// domain is empty: 1 for an exclusive prefix sum (its [0]) or a lowered
/// subset's (its closing row), else 0.
int64_t emptyDomainRows(mlir::Operation *def);

} // namespace imeta

#endif // IMETA_DIALECT_SUBSETLOWERING_H
