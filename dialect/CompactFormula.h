//===- CompactFormula.h - a field's formula as one expression ---*- C++ -*-===//
//
// The compact form of a field, `imeta.field @f DOMAIN ... = "FORMULA"`
// (or a rule, `imeta.require "R" "message" seq = "FORMULA"`), is a front
// end: expanded into the same ops as the SSA form (an
// imeta.yield-terminated body) before anything else reads the spec. A
// FORMULA is `name = expr;` bindings, then the value: an expression over
//
//   - integers; `+ - * / %` (i32, C's truncating division and remainder),
//     `< <= > >= == !=`, `&& || !` (i1), `c ? a : b` (only the side taken
//     is evaluated: a read on the other cannot fail);
//   - the point: `i` (sequence), `j` (row in the sequence), `r` (row in
//     the field; in a field over a subset, the member's index), `col`,
//     `n` (the bucket's ratio or axis index), `N` (sequences);
//   - the spec's symbols by name (or `@name`): a config parameter, a
//     scalar input, a field; `x[e]` reads a list input, a config list or
//     a prefix sum at e; `len(x)` a list's length, `total(x)` a sum's
//     total; `count(x, lo, hi, vlo, vhi)` how many of list x's elements
//     lo .. hi - 1 lie in [vlo, vhi] (imeta.count); `gather(X, u)` rows
//     field X at row u of the current sequence, 0 or false where u < 0
//     (imeta.gather);
//   - `select(c, a, b)`: both a and b computed, then one taken
//     (arith.select; `c ? a : b` computes only the side taken);
//     `int(c)`: a condition as 1 or 0 (arith.extui);
//   - `min(a, b)`, `max(a, b)`, `clamp(x, lo, hi)`, `floordiv(a, b)`,
//     `ceildiv(a, b)`, `ratio_min(set)`, `ratio_count(set)`,
//     `sum_of(f)`, `max_of(f)`, `min_of(f)` (imeta.reduce; of a rows
//     field, its rows: dialect/RowsReduction.h; of a field over a subset,
//     its members: dialect/SubsetLowering.h);
//   - `prev()`, `prev(k)`: a seq field's own (k-th) value at the previous
//     sequence, 0 at the first (a fold); `prev(x)` field x's (imeta.prev);
//   - `name(args)`: a sub-formula of the spec (`imeta.formula @name(p, q)
//     = "..."`), its ops in place with the arguments (i32) for its
//     parameters.
//
// A field's value may be a row of K values, `a, b, c` (`[X, K]`).
//
// Numbers compare with `< <= > >= == !=`, conditions with `==` and `!=`.
// A local binding hides a symbol of the same name; `@name` always means
// the symbol. A built-in name read bare (`n`) where the spec also has a
// symbol of that name is an error: write `@n` (dialect/CompactSyntax.h
// lists the built-ins). The value is i32 unless the field declares `: i1`
// (a comparison) after the string.
//
// Errors and the ops a formula builds are located at their column in the
// formula's text (a sub-formula's, called from where the caller calls it),
// so a failure at run time names the subexpression that failed.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_COMPACTFORMULA_H
#define IMETA_DIALECT_COMPACTFORMULA_H

#include "dialect/IMetaOps.h"

namespace imeta {

/// Builds `field`'s body from its formula string and drops the string; a
/// located error (naming the formula's column) where it does not parse
/// or names nothing.
mlir::LogicalResult expandCompactFormula(FieldOp field);
/// The same for a rule (`imeta.require "R" "message" seq = "FORMULA"`),
/// whose value is a condition.
mlir::LogicalResult expandCompactFormula(RequireOp rule);

/// Expands every compact field and rule of `root` (the expanded ops are
/// for the caller to verify).
mlir::LogicalResult expandCompactFormulas(mlir::Operation *root);

} // namespace imeta

#endif // IMETA_DIALECT_COMPACTFORMULA_H
