//===- ScheduleRows.cpp - record a path's schedule in the IR --------------===//
//
// imeta-order-host records the host stage (the light first pass that sizes
// every data-dependent field), imeta-fuse-rows the fusion of rows fields
// into one loop nest per row space, imeta-stack-buckets the stacked buffer
// of each output. The emitters follow what is recorded.
//
//===----------------------------------------------------------------------===//

#include "dialect/CompactFormula.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Analysis/PathPlan.h"
#include "lib/Transforms/Passes.h"

namespace imeta {
#define GEN_PASS_DEF_ORDERHOST
#define GEN_PASS_DEF_FUSEROWS
#define GEN_PASS_DEF_STACKBUCKETS
#include "lib/Transforms/Passes.h.inc"
} // namespace imeta

using namespace mlir;
using namespace imeta;

static FlatSymbolRefAttr symbolOf(Operation *op) {
  return FlatSymbolRefAttr::get(op->getContext(),
                                SymbolTable::getSymbolName(op));
}

namespace {
struct OrderHostPass : imeta::impl::OrderHostBase<OrderHostPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    // A compact formula's reads are known once it is expanded.
    if (failed(expandCompactFormulas(getOperation())))
      return signalPassFailure();
    CachedSymbolLookups cached; // from here on no symbol is added
    for (auto path : getOperation().getBody().front().getOps<PathOp>()) {
      if (path->hasAttr(kHostScheduleAttr))
        continue; // Keep an order someone recorded by hand.
      PathPlan plan = defaultPlan(path);
      SmallVector<RequireOp> rules = allRules(path);
      SmallVector<Attribute> order;
      for (HostStep &step : plan.host) {
        if (auto rule = dyn_cast<RequireOp>(step.op))
          order.push_back(b.getI64IntegerAttr(llvm::find(rules, rule) -
                                              rules.begin()));
        else
          order.push_back(symbolOf(step.op));
      }
      path->setAttr(kHostScheduleAttr, b.getArrayAttr(order));
    }
  }
};

struct FuseRowsPass : imeta::impl::FuseRowsBase<FuseRowsPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    // A compact formula's reads are known once it is expanded.
    if (failed(expandCompactFormulas(getOperation())))
      return signalPassFailure();
    CachedSymbolLookups cached; // from here on no symbol is added
    for (auto path : getOperation().getBody().front().getOps<PathOp>()) {
      if (path->hasAttr(kFillScheduleAttr))
        continue; // Keep a fusion someone recorded by hand.
      PathPlan plan = defaultPlan(path);
      SmallVector<Attribute> groups;
      for (RowSpace &space : plan.rowSpaces) {
        SmallVector<Attribute> group{symbolOf(space.count)};
        for (FieldOp field : space.fields)
          group.push_back(symbolOf(field));
        groups.push_back(b.getArrayAttr(group));
      }
      path->setAttr(kFillScheduleAttr, b.getArrayAttr(groups));
    }
  }
};
struct StackBucketsPass : imeta::impl::StackBucketsBase<StackBucketsPass> {
  void runOnOperation() override {
    CachedSymbolLookups cached;
    getOperation().walk([&](OutputOp out) {
      if (out->hasAttr(kLayoutAttr))
        return;
      Operation *def =
          lookupSymbol(out, out.getSourceAttr());
      out->setAttr(kLayoutAttr,
                   StringAttr::get(&getContext(), bufferLayout(def)));
    });
  }
};
} // namespace
