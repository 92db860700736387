//===- MonotoneLoads.cpp - loads a column loop checks once per row --------===//

#include "lib/Lowering/MonotoneLoads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imeta;

namespace {
/// How a value varies with the column. `monotone`: in one direction, not
/// known which (a product or quotient by a value of unknown sign).
enum class Trend { invariant, up, down, monotone, none };

Trend negate(Trend t) {
  return t == Trend::up ? Trend::down : t == Trend::down ? Trend::up : t;
}

/// The trend of a sum of terms of trends `a` and `b`.
Trend sum(Trend a, Trend b) {
  if (a == Trend::invariant)
    return b;
  if (b == Trend::invariant)
    return a;
  return a == b && (a == Trend::up || a == Trend::down) ? a : Trend::none;
}

/// The trend of `v`: its defining ops must have no regions and read no
/// list (the column loop evaluates them at a row's ends, unguarded).
Trend trendOf(Value v, DenseMap<Value, Trend> &memo) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  Operation *op = v.getDefiningOp();
  Trend t = Trend::none;
  if (op && op->getNumRegions() == 0 && !isa<LoadOp>(op)) {
    auto operand = [&](unsigned i) { return trendOf(op->getOperand(i), memo); };
    bool allInvariant = llvm::all_of(op->getOperands(), [&](Value x) {
      return trendOf(x, memo) == Trend::invariant;
    });
    t = llvm::TypeSwitch<Operation *, Trend>(op)
            .Case<ColIndexOp>([](auto) { return Trend::up; })
            .Case<arith::AddIOp>(
                [&](auto) { return sum(operand(0), operand(1)); })
            .Case<arith::SubIOp>(
                [&](auto) { return sum(operand(0), negate(operand(1))); })
            .Case<arith::ExtSIOp>([&](auto) { return operand(0); })
            .Case<arith::MulIOp>([&](auto) {
              Trend a = operand(0), b = operand(1);
              if (a == Trend::invariant && b == Trend::invariant)
                return Trend::invariant;
              if (a != Trend::invariant && b != Trend::invariant)
                return Trend::none;
              return a == Trend::none || b == Trend::none ? Trend::none
                                                          : Trend::monotone;
            })
            .Case<arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp>(
                [&](auto) {
                  Trend a = operand(0);
                  if (operand(1) != Trend::invariant || a == Trend::none)
                    return Trend::none;
                  return a == Trend::invariant ? Trend::invariant
                                               : Trend::monotone;
                })
            .Default([&](Operation *) {
              return allInvariant ? Trend::invariant : Trend::none;
            });
  }
  memo[v] = t;
  return t;
}

/// Whether `op` sits directly in the body of `field` (not in a branch).
bool atTop(Operation *op, FieldOp field) {
  return op->getBlock() == &field.getBody().front();
}
} // namespace

SmallVector<MonotoneLoad> imeta::monotoneLoads(FieldOp field) {
  SmallVector<MonotoneLoad> found;
  DenseMap<Value, Trend> memo;
  field.walk([&](LoadOp load) {
    Trend t = trendOf(load.getIndex(), memo);
    if (t == Trend::none || t == Trend::invariant)
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
          trendOf(cmp.getRhs(), memo) != Trend::invariant)
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
