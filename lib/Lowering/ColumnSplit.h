//===- ColumnSplit.h - a row's columns split where a branch turns -*- C++ -*-=//
//
// An expansion's formula is typically `col < len ? value(col) : -1`: the
// row's columns below `len` take one branch, the rest the other. A GPU
// column step that evaluates the condition per value pays a compare, a
// branch and a convergence region per value (kv_ca_index.1: 50% of copy
// bandwidth at 32 MiB, 57% with the branch taken once per 4-value step,
// bench/RESULTS.md). Where the bound is the same at every column, the
// step tests its columns against it once: all below (the `then` side,
// unbranched), none below (the `else` side), or straddling (per value,
// as before: one step a row).
//
// The conditions: `arith.cmpi slt` of the column and a column-invariant
// value (ColumnTrend.h), both at the top of the formula. Every such
// compare with the same bound is known in the two uniform cases.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_COLUMNSPLIT_H
#define IMETA_LOWERING_COLUMNSPLIT_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace imeta {

/// The columns of a row below `bound` and the rest, and the compares
/// (`col < bound`) each side decides.
struct ColumnSplit {
  mlir::Value bound;
  llvm::SmallVector<mlir::Value, 2> conditions;
};

/// The split of `field`'s formula by the first qualifying compare that a
/// branch or select tests, if it has one.
std::optional<ColumnSplit> columnSplit(FieldOp field);

} // namespace imeta

#endif // IMETA_LOWERING_COLUMNSPLIT_H
