//===- FormulaBlock.h - the one walk over a formula's block -----*- C++ -*-===//
//
// The C++ printer and the range proof each run a verified formula block
// (a field's or rule's body, a branch of scf.if) the same way: every op
// before the terminator in order, then what the terminator yields. The
// evaluator walks the same order over blocks it decodes once
// (lib/Eval/Formula.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_FORMULABLOCK_H
#define IMETA_DIALECT_FORMULABLOCK_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/SmallVector.h"

namespace imeta {

/// Runs `step` on each op of `block` before its terminator, then appends
/// the terminator's operands, as `valueOf` gives them, to `yielded`. Fails
/// where `step` does.
template <typename T, typename Step, typename ValueOf>
mlir::LogicalResult runFormulaBlock(mlir::Block &block,
                                    llvm::SmallVectorImpl<T> &yielded,
                                    Step step, ValueOf valueOf) {
  for (mlir::Operation &op : block.without_terminator())
    if (mlir::failed(step(op)))
      return mlir::failure();
  for (mlir::Value v : block.getTerminator()->getOperands())
    yielded.push_back(valueOf(v));
  return mlir::success();
}

} // namespace imeta

#endif // IMETA_DIALECT_FORMULABLOCK_H
