//===- PathPlan.cpp - the schedule of a path's generated code -------------===//

#include "lib/Lowering/PathPlan.h"
#include "dialect/IMetaSymbols.h"

using namespace mlir;
using namespace imeta;

SmallVector<Operation *> imeta::fieldDependencies(Operation *op) {
  SmallVector<Operation *> deps;
  auto add = [&](FlatSymbolRefAttr sym) {
    if (!sym)
      return;
    Operation *def = SymbolTable::lookupNearestSymbolFrom(op, sym);
    if (isa_and_nonnull<FieldOp, PrefixSumOp>(def) && !llvm::is_contained(deps, def))
      deps.push_back(def);
  };
  if (auto sum = dyn_cast<PrefixSumOp>(op))
    add(sum.getSourceAttr());
  if (auto field = dyn_cast<FieldOp>(op)) {
    add(field.getCountAttr());
    add(field.getLiveAttr());
  }
  op->walk([&](Operation *inner) {
    if (auto get = dyn_cast<GetOp>(inner))
      add(get.getFieldAttr());
    else if (auto at = dyn_cast<PrefixAtOp>(inner))
      add(at.getPrefixAttr());
    else if (auto total = dyn_cast<PrefixTotalOp>(inner))
      add(total.getPrefixAttr());
  });
  return deps;
}

/// Post-order DFS: dependencies before users. The verifier has ruled out
/// cycles.
static void visit(Operation *op, llvm::SetVector<Operation *> &order) {
  if (order.contains(op))
    return;
  for (Operation *dep : fieldDependencies(op))
    visit(dep, order);
  order.insert(op);
}

static bool isHostOp(Operation *op) {
  auto field = dyn_cast<FieldOp>(op);
  return !field || field.getDomain() != Domain::rows;
}

PathPlan imeta::planPath(PathOp path) {
  PathPlan plan;
  plan.path = path;
  auto spec = path->getParentOfType<SpecOp>();

  // Host stage: each rule after the host fields it reads, in rule order
  // (so a rule guards the fields after it), then the remaining host fields.
  SmallVector<RequireOp> rules =
      llvm::to_vector(spec.getBody().front().getOps<RequireOp>());
  llvm::append_range(rules, getPathRules(path));
  llvm::SetVector<Operation *> hostDone;
  auto scheduleHost = [&](Operation *op) {
    llvm::SetVector<Operation *> order;
    visit(op, order);
    for (Operation *dep : order) {
      if (isa<RequireOp>(dep))
        continue;
      plan.needed.insert(dep);
      if (!isHostOp(dep) || hostDone.contains(dep))
        continue;
      hostDone.insert(dep);
      plan.host.push_back({dep});
    }
  };
  for (RequireOp rule : rules) {
    scheduleHost(rule);
    plan.host.push_back({rule});
  }
  for (OutputOp out : getPathOutputs(path))
    scheduleHost(SymbolTable::lookupNearestSymbolFrom(out, out.getSourceAttr()));

  // Fill stage: rows fields grouped by row count, in dependency order.
  for (Operation *op : plan.needed) {
    auto field = dyn_cast<FieldOp>(op);
    if (!field || field.getDomain() != Domain::rows)
      continue;
    auto count = lookupSpecSymbol<FieldOp>(field, field.getCountAttr());
    auto space = llvm::find_if(plan.rowSpaces,
                               [&](RowSpace &s) { return s.count == count; });
    if (space == plan.rowSpaces.end()) {
      plan.rowSpaces.push_back({count, {}});
      space = std::prev(plan.rowSpaces.end());
    }
    space->fields.push_back(field);
  }

  for (OutputOp out : getPathOutputs(path)) {
    Operation *def = SymbolTable::lookupNearestSymbolFrom(out, out.getSourceAttr());
    PlannedOutput po{out.getName().str(), def, getRatios(def)};
    if (auto field = dyn_cast<FieldOp>(def)) {
      po.width = field.getCols() ? 0 : field.getWidth();
      po.isBool = field.getElementType().isInteger(1);
    }
    plan.outputs.push_back(po);
  }

  for (Operation *op : plan.needed) {
    if (auto r = getRatios(op))
      plan.ratioSets.insert(r);
    op->walk([&](Operation *inner) {
      if (auto m = dyn_cast<RatioMinOp>(inner))
        plan.ratioSets.insert(m.getSetAttr());
      if (auto c = dyn_cast<RatioCountOp>(inner))
        plan.ratioSets.insert(c.getSetAttr());
    });
  }
  for (RequireOp rule : rules)
    if (auto r = rule.getRatiosAttr())
      plan.ratioSets.insert(r);
  return plan;
}
