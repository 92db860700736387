//===- ColumnTrend.cpp - how a formula's values vary with the column ------===//

#include "lib/Lowering/ColumnTrend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imeta;

namespace {
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
} // namespace

Trend ColumnTrends::of(Value v) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  Operation *op = v.getDefiningOp();
  Trend t = Trend::none;
  if (op && op->getNumRegions() == 0 && !isa<LoadOp>(op)) {
    auto operand = [&](unsigned i) { return of(op->getOperand(i)); };
    bool allInvariant = llvm::all_of(op->getOperands(), [&](Value x) {
      return of(x) == Trend::invariant;
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

bool ColumnTrends::movesByOne(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || of(v) != Trend::up)
    return false;
  auto invariant = [&](unsigned i) {
    return of(op->getOperand(i)) == Trend::invariant;
  };
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case<ColIndexOp>([](auto) { return true; })
      .Case<arith::AddIOp>([&](auto) {
        return (invariant(1) && movesByOne(op->getOperand(0))) ||
               (invariant(0) && movesByOne(op->getOperand(1)));
      })
      .Case<arith::SubIOp>([&](auto) {
        return invariant(1) && movesByOne(op->getOperand(0));
      })
      .Case<arith::ExtSIOp>([&](auto) { return movesByOne(op->getOperand(0)); })
      .Default([](Operation *) { return false; });
}

bool imeta::atTop(Operation *op, FieldOp field) {
  return op->getBlock() == &field.getBody().front();
}
