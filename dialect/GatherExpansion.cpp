//===- GatherExpansion.cpp - imeta.gather as the gathered formula ---------===//

#include "dialect/GatherExpansion.h"
#include "dialect/IMetaOps.h"
#include "dialect/IMetaSymbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace imeta;

/// Gathers nest as the fields they read do; past this depth they must
/// form a cycle.
static constexpr unsigned kMaxGatherDepth = 64;

namespace {
class GatherExpander {
public:
  explicit GatherExpander(Operation *root) : root(root) {}
  LogicalResult run();

private:
  LogicalResult expand(GatherOp gather, unsigned depth);
  /// Rewrites the cloned body: its row index is `row`, each rows field it
  /// reads is gathered at `row` (queued at `depth`).
  LogicalResult retarget(GatherOp gather, FieldOp source,
                         ArrayRef<Operation *> cloned, Value row,
                         unsigned depth);

  Operation *root;
  SymbolTableCollection tables;
  SmallVector<std::pair<GatherOp, unsigned>> work;
};
} // namespace

LogicalResult GatherExpander::run() {
  root->walk([&](GatherOp g) { work.push_back({g, 0}); });
  while (!work.empty()) {
    auto [gather, depth] = work.pop_back_val();
    if (failed(expand(gather, depth)))
      return failure();
  }
  return success();
}

LogicalResult GatherExpander::expand(GatherOp gather, unsigned depth) {
  if (depth > kMaxGatherDepth)
    return gather.emitOpError("gathers ")
           << gather.getFieldAttr() << " through more than " << kMaxGatherDepth
           << " nested gathers: its fields read each other "
           << "in a cycle";
  // The op is gone once expanded: its checks run here.
  if (failed(gather.verifySymbolUses(tables)))
    return failure();
  auto source = lookupSpecSymbol<FieldOp>(gather, gather.getFieldAttr());
  if (source.getFormula())
    return gather.emitOpError("gathers ")
           << gather.getFieldAttr() << ", whose formula did not expand";

  OpBuilder b(gather);
  Location loc = gather.getLoc();
  Type type = gather.getType();
  Value index = gather.getIndex();
  Value zero = arith::ConstantIntOp::create(b, loc, index.getType(), 0);
  Value pad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  auto branch = scf::IfOp::create(b, loc, TypeRange{type}, pad,
                                  /*withElseRegion=*/true);
  // A pad row (a negative index): 0 or false.
  b.setInsertionPointToStart(branch.thenBlock());
  Value padValue = arith::ConstantIntOp::create(b, loc, type, 0);
  scf::YieldOp::create(b, loc, padValue);

  // A row of the sequence: the source's formula there.
  b.setInsertionPointToStart(branch.elseBlock());
  Value count = GetOp::create(b, loc, index.getType(), source.getCountAttr());
  Value row = CheckIndexOp::create(
      b, loc, index.getType(), index, count,
      b.getStringAttr("the rows of '" + source.getSymName() + "'"));
  IRMapping map;
  SmallVector<Operation *> cloned;
  Block &body = source.getBody().front();
  for (Operation &op : body.without_terminator())
    cloned.push_back(b.clone(op, map));
  Value value = map.lookupOrDefault(source.getYield().getValues().front());
  scf::YieldOp::create(b, loc, value);
  if (failed(retarget(gather, source, cloned, row, depth + 1)))
    return failure();

  gather.replaceAllUsesWith(branch.getResult(0));
  gather.erase();
  return success();
}

LogicalResult GatherExpander::retarget(GatherOp gather, FieldOp source,
                                       ArrayRef<Operation *> cloned, Value row,
                                       unsigned depth) {
  SmallVector<Operation *> erase;
  bool ok = true;
  for (Operation *top : cloned)
    top->walk([&](Operation *op) {
      if (isa<RowOp>(op)) {
        gather.emitOpError("gathers ")
            << gather.getFieldAttr() << ", which reads its global row "
            << "(imeta.row); write its row from a prefix sum of '"
            << source.getCount()->str() << "' and imeta.row_index instead";
        ok = false;
        return;
      }
      if (auto index = dyn_cast<RowIndexOp>(op)) {
        index.replaceAllUsesWith(row);
        erase.push_back(op);
        return;
      }
      // A gather of the source's own, not expanded yet there: this copy
      // is expanded too (at its row, which the copy computes).
      if (auto inner = dyn_cast<GatherOp>(op)) {
        work.push_back({inner, depth});
        return;
      }
      auto get = dyn_cast<GetOp>(op);
      if (!get)
        return;
      auto field = lookupSpecSymbol<FieldOp>(get, get.getFieldAttr());
      if (!field || field.getDomain() != Domain::rows)
        return;
      OpBuilder b(get);
      auto inner = GatherOp::create(b, get.getLoc(), get.getType(),
                                    get.getFieldAttr(), row);
      get.replaceAllUsesWith(inner.getResult());
      erase.push_back(op);
      work.push_back({inner, depth});
    });
  for (Operation *op : erase)
    op->erase();
  return success(ok);
}

LogicalResult imeta::expandGathers(Operation *root) {
  return GatherExpander(root).run();
}
