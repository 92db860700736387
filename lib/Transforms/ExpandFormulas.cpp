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
    // The pass manager verifies the expanded ops after the pass.
    if (failed(expandCompactFormulas(getOperation())))
      signalPassFailure();
  }
};
} // namespace
