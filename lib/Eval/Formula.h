//===- Formula.h - the interpreter of field and rule bodies -----*- C++ -*-===//

#ifndef IMETA_EVAL_FORMULA_H
#define IMETA_EVAL_FORMULA_H

#include "lib/Eval/Evaluator.h"

#include <memory>

namespace imeta {

/// The point of a domain at which a body is run.
struct Point {
  int64_t seq = -1;       ///< sequence index i
  int64_t row = -1;       ///< row index within the sequence (j)
  int64_t globalRow = -1; ///< row index within the field (r)
  int64_t col = -1;       ///< column of a `cols` field
  int64_t ratio = 0;      ///< ratio of the bucket, 0 when not bucketed
};

/// Runs one field's or rule's body at point after point. The body is
/// decoded once (each op's FormulaOpInterface, a slot for every value it
/// defines, each result's range), so a point costs its ops' evaluate() and
/// no walk or lookup of the IR.
///
/// Every integer is computed in 64 bits; a run fails where a result does
/// not fit its type (an int32 overflow is an error, never a wrapped index),
/// on division by zero, and on a list read out of range.
class FormulaRunner {
public:
  FormulaRunner(Evaluator &ev, mlir::Region &body);
  ~FormulaRunner();
  FormulaRunner(const FormulaRunner &) = delete;
  FormulaRunner &operator=(const FormulaRunner &) = delete;

  /// Runs the body at `point`; appends the yielded values to `out`.
  llvm::Error run(const Point &point, llvm::SmallVectorImpl<int64_t> &out);
  /// The values the field computed so far, `width` a point: what
  /// imeta.prev reads at the previous sequence (a seq field's runner).
  void setOwnValues(const std::vector<int64_t> *values, int64_t width);
  /// The value `op` (of the body's top block) took in the last run that
  /// reached it (a broken rule's operands).
  int64_t lastValue(mlir::Operation *op) const;

  class Interpreter;

private:
  std::unique_ptr<Interpreter> impl;
};

} // namespace imeta

#endif // IMETA_EVAL_FORMULA_H
