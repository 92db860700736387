//===- ExpandFormulas.cpp - compact field formulas into ops ---------------===//

#include "dialect/CompactFormula.h"
#include "lib/Transforms/Passes.h"

namespace imeta {
#define GEN_PASS_DEF_EXPANDFORMULAS
#include "lib/Transforms/Passes.h.inc"
} // namespace imeta

using namespace mlir;
using namespace imeta;

namespace {
struct ExpandFormulasPass
    : imeta::impl::ExpandFormulasBase<ExpandFormulasPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](Operation *op) {
      if (auto field = dyn_cast<FieldOp>(op); field && field.getFormula())
        ok &= succeeded(expandCompactFormula(field));
      if (auto rule = dyn_cast<RequireOp>(op); rule && rule.getFormula())
        ok &= succeeded(expandCompactFormula(rule));
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
