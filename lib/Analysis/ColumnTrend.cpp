//===- ColumnTrend.cpp - how a formula's values vary with the column ------===//

#include "lib/Analysis/ColumnTrend.h"

using namespace mlir;
using namespace imeta;

Trend ColumnTrends::of(Value v) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  Operation *op = v.getDefiningOp();
  Trend t = Trend::none;
  // Ops with regions and list reads are not followed.
  auto formula = dyn_cast_or_null<FormulaOpInterface>(op);
  if (formula && op->getNumRegions() == 0 && !isa<LoadOp>(op)) {
    SmallVector<Trend, 3> operands;
    for (Value x : op->getOperands())
      operands.push_back(of(x));
    t = formula.columnTrend(operands);
  }
  memo[v] = t;
  return t;
}

bool ColumnTrends::movesByOne(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || of(v) != Trend::up)
    return false;
  SmallVector<Trend, 3> operands;
  for (Value x : op->getOperands())
    operands.push_back(of(x));
  return cast<FormulaOpInterface>(op).movesByOneColumn(
      [&](unsigned i) { return movesByOne(op->getOperand(i)); }, operands);
}

bool imeta::atTop(Operation *op, FieldOp field) {
  return op->getBlock() == &field.getBody().front();
}
