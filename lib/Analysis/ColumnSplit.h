//===- ColumnSplit.h - a row's columns split where a branch turns -*- C++ -*-=//
//
// An expansion's formula is typically `col < len ? value(col) : -1`: the
// row's columns below `len` take one branch, the rest the other. A GPU
// column step that evaluates the condition per value pays a compare, a
// branch and a convergence region per value (bench/HISTORY.md). Where
// the bound is the same at every column, the
// step tests its columns against it once: all below (the `then` side,
// unbranched), none below (the `else` side), or straddling (per value,
// as before: one step a row).
//
// The conditions: `arith.cmpi slt` of the column and a column-invariant
// value (ColumnTrend.h), both at the top of the formula. Every such
// compare with the same bound is known in the two uniform cases. Below
// the bound, a division whose dividend is monotone in the column needs
// its range tested once per row, not per value (the GPU's division is a
// multiply for a dividend in range, else a slow path behind a branch);
// where its quotient indexes a read, a step whose first and last column
// give the same quotient divides and reads once for its values
// (EmitColumnLoop.cpp, emitBelowSplit).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_ANALYSIS_COLUMNSPLIT_H
#define IMETA_ANALYSIS_COLUMNSPLIT_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace imeta {

/// The columns of a row below `bound` and the rest, and the compares
/// (`col < bound`) each side decides.
struct ColumnSplit {
  mlir::Value bound;
  llvm::SmallVector<mlir::Value, 2> conditions;
  /// 32-bit divisions (quotients, remainders) at the top of the formula or
  /// directly in the `then` side of a branch on one of `conditions`, whose
  /// dividend is monotone in the column: where the row's first and last
  /// column below `bound` are in the divider's range, every column below
  /// is, and the side below divides by the multiply alone.
  llvm::SmallVector<mlir::Operation *, 2> divisions;
};

/// The split of `field`'s formula by the first qualifying compare that a
/// branch or select tests, if it has one.
std::optional<ColumnSplit> columnSplit(FieldOp field);

} // namespace imeta

#endif // IMETA_ANALYSIS_COLUMNSPLIT_H
