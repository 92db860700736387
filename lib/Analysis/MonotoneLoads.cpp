//===- MonotoneLoads.cpp - loads a column loop checks once per row --------===//

#include "lib/Analysis/MonotoneLoads.h"
#include "lib/Analysis/ColumnTrend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace imeta;

SmallVector<MonotoneLoad> imeta::monotoneLoads(FieldOp field) {
  SmallVector<MonotoneLoad> found;
  ColumnTrends trends;
  field.walk([&](LoadOp load) {
    Trend t = trends.of(load.getIndex());
    if (t == Trend::none)
      return;
    MonotoneLoad ml{load, {}};
    for (Operation *at = load; at->getParentOp() != field.getOperation();
         at = at->getParentOp()) {
      auto branch = dyn_cast<scf::IfOp>(at->getParentOp());
      if (!branch || !branch.getThenRegion().isAncestor(at->getParentRegion()))
        return;
      auto cmp = branch.getCondition().getDefiningOp<arith::CmpIOp>();
      if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt ||
          !cmp.getLhs().getDefiningOp<ColIndexOp>() ||
          trends.of(cmp.getRhs()) != Trend::invariant)
        return;
      Operation *bound = cmp.getRhs().getDefiningOp();
      if (!bound || !atTop(bound, field))
        return;
      ml.bounds.push_back(cmp.getRhs());
    }
    found.push_back(ml);
  });
  return found;
}
