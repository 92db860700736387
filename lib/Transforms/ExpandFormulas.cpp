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
    getOperation().walk([&](FieldOp field) {
      if (field.getFormula() && failed(expandCompactFormula(field)))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
