//===- Formula.h - the interpreter of field and rule bodies -----*- C++ -*-===//

#ifndef IMETA_EVAL_FORMULA_H
#define IMETA_EVAL_FORMULA_H

#include "lib/Eval/Evaluator.h"

namespace imeta {

/// The point of a domain at which a body is run.
struct Point {
  int64_t seq = -1;       ///< sequence index i
  int64_t row = -1;       ///< row index within the sequence (j)
  int64_t globalRow = -1; ///< row index within the field (r)
  int64_t col = -1;       ///< column of a `cols` field
  int64_t ratio = 0;      ///< ratio of the bucket, 0 when not bucketed
};

/// Runs a field or rule body at `point`, computing every integer in 64 bits
/// and failing where a result does not fit its type (an int32 overflow is
/// an error, never a wrapped index), on division by zero, and on a list
/// read out of range. Appends the yielded values to `out`.
llvm::Error runFormula(Evaluator &ev, mlir::Region &body, const Point &point,
                       llvm::SmallVectorImpl<int64_t> &out);

} // namespace imeta

#endif // IMETA_EVAL_FORMULA_H
