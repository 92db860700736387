//===- ListDependence.cpp - values computed from unbounded list elements -===//

#include "lib/Analysis/ListDependence.h"
#include "dialect/IMetaSymbols.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace imeta;

/// A load from a list whose elements have no declared bound: the host
/// does not scan it, so the proof knows nothing of its values.
static bool isUnboundedLoad(Operation *op) {
  auto load = dyn_cast<LoadOp>(op);
  if (!load)
    return false;
  auto input = lookupSpecSymbol<InputOp>(load, load.getInputAttr());
  return !input || !input.getMin();
}

ListDependence imeta::analyzeListDependence(SpecOp spec) {
  ListDependence found;
  auto &values = found.values;
  auto &fields = found.fields;
  auto mark = [&](Value v) { return values.insert(v).second; };
  // Rows fields may read each other in any spec order: iterate to a fixed
  // point (each round only adds).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto field : spec.getBody().front().getOps<FieldOp>()) {
      if (field.getDomain() != Domain::rows)
        continue;
      // Post-order: an scf.if or imeta.reduce_rows is visited after the
      // ops of its regions.
      field.getBody().walk([&](Operation *op) {
        bool dep = isUnboundedLoad(op) ||
                   llvm::any_of(op->getOperands(),
                                [&](Value v) { return values.contains(v); });
        if (auto get = dyn_cast<GetOp>(op))
          dep |= fields.contains(
              lookupSpecSymbol<FieldOp>(get, get.getFieldAttr()));
        for (auto [k, result] : llvm::enumerate(op->getResults())) {
          bool resultDep = dep;
          // An scf.if's or a fold's result is what its regions yield.
          if (isa<scf::IfOp, ReduceRowsOp>(op))
            for (Region &region : op->getRegions())
              if (!region.empty())
                resultDep |= values.contains(
                    region.front().getTerminator()->getOperand(k));
          if (resultDep)
            changed |= mark(result);
        }
      });
      Operation *yield = field.getBody().front().getTerminator();
      if (llvm::any_of(yield->getOperands(),
                       [&](Value v) { return values.contains(v); }))
        changed |= fields.insert(field).second;
    }
  }
  return found;
}

