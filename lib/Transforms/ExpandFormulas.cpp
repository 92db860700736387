//===- ExpandFormulas.cpp - compact field formulas into ops ---------------===//

#include "dialect/CompactFormula.h"
#include "lib/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"

namespace imeta {
#define GEN_PASS_DEF_EXPANDFORMULAS
#define GEN_PASS_DEF_CHECKFORMULAS
#include "lib/Transforms/Passes.h.inc"
} // namespace imeta

using namespace mlir;
using namespace imeta;

namespace {
struct ExpandFormulasPass
    : imeta::impl::ExpandFormulasBase<ExpandFormulasPass> {
  void runOnOperation() override {
    // The pass manager verifies the expanded ops after the pass.
    if (failed(expandCompactFormulas(getOperation())))
      signalPassFailure();
  }
};

struct CheckFormulasPass : imeta::impl::CheckFormulasBase<CheckFormulasPass> {
  void runOnOperation() override {
    getOperation()->walk([&](SpecOp spec) {
      bool compact = false;
      spec->walk([&](Operation *op) {
        auto field = dyn_cast<FieldOp>(op);
        auto rule = dyn_cast<RequireOp>(op);
        compact |= (field && field.getFormula()) || (rule && rule.getFormula());
      });
      if (!compact)
        return WalkResult::skip();
      // A copy, expanded and verified, then dropped.
      OwningOpRef<SpecOp> copy(spec.clone());
      if (failed(expandCompactFormulas(*copy)) || failed(verify(*copy)))
        signalPassFailure();
      return WalkResult::skip();
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
