//===- ColumnInvariants.cpp - what a column loop computes before it -------===//

#include "lib/Analysis/ColumnInvariants.h"

using namespace mlir;
using namespace imeta;

bool imeta::isDivision32(Operation *op) {
  auto formula = dyn_cast<FormulaOpInterface>(op);
  return formula && formula.getDivisor() &&
         op->getResult(0).getType().isInteger(32);
}

ColumnInvariants imeta::columnInvariants(FieldOp field) {
  ColumnInvariants found;
  field.walk([&](FormulaOpInterface op) {
    if (op.isBucketInvariantRead())
      found.reads.insert(op);
  });
  field.walk([&](Operation *op) {
    if (!isDivision32(op))
      return;
    Operation *def = op->getOperand(1).getDefiningOp();
    if (def && found.reads.contains(def) && !isa<GetConfigOp, RatioOp>(def))
      found.loopDividers.insert(op->getOperand(1));
  });
  return found;
}
