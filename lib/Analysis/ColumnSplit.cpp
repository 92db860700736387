//===- ColumnSplit.cpp - a row's columns split where a branch turns -------===//

#include "lib/Analysis/ColumnSplit.h"
#include "lib/Analysis/ColumnInvariants.h"
#include "lib/Analysis/ColumnTrend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace imeta;

std::optional<ColumnSplit> imeta::columnSplit(FieldOp field) {
  ColumnTrends trends;
  // `col < X` at the top, X column-invariant and computed at the top.
  auto boundOf = [&](arith::CmpIOp cmp) -> Value {
    if (!atTop(cmp, field) || cmp.getPredicate() != arith::CmpIPredicate::slt ||
        !cmp.getLhs().getDefiningOp<ColIndexOp>())
      return Value();
    Operation *def = cmp.getRhs().getDefiningOp();
    if (!def || !atTop(def, field) ||
        trends.of(cmp.getRhs()) != Trend::invariant)
      return Value();
    return cmp.getRhs();
  };
  auto tested = [](Operation &op) -> Value {
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return branch.getCondition();
    if (auto select = dyn_cast<arith::SelectOp>(op))
      return select.getCondition();
    return Value();
  };
  std::optional<ColumnSplit> split;
  for (Operation &op : field.getBody().front()) {
    Value cond = tested(op);
    auto cmp = cond ? cond.getDefiningOp<arith::CmpIOp>() : arith::CmpIOp();
    if (Value bound = cmp ? boundOf(cmp) : Value()) {
      split = ColumnSplit{bound, {}, {}};
      break;
    }
  }
  if (!split)
    return std::nullopt;
  for (Operation &op : field.getBody().front())
    if (auto cmp = dyn_cast<arith::CmpIOp>(op);
        cmp && boundOf(cmp) == split->bound)
      split->conditions.push_back(cmp.getResult());
  // The blocks that run at every column below the bound: the top, and the
  // `then` side of a branch on the split's compare.
  SmallVector<Block *, 2> below{&field.getBody().front()};
  for (Operation &op : field.getBody().front())
    if (auto branch = dyn_cast<scf::IfOp>(op);
        branch && llvm::is_contained(split->conditions, branch.getCondition()))
      below.push_back(&branch.getThenRegion().front());
  for (Block *block : below)
    for (Operation &op : *block)
      if (isDivision32(&op) && trends.of(op.getOperand(0)) != Trend::none)
        split->divisions.push_back(&op);
  return split;
}
