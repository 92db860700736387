//===- TestColumnAnalyses.cpp - the column loop's analyses as remarks -----===//
//
// imeta-opt -imeta-test-column-analyses: for each `cols` field, what its
// GPU column loop does with each op (EmitColumnLoop.cpp), as remarks for
// lit's -verify-diagnostics:
//   - "read once before the column loop" (ColumnInvariants.h);
//   - "divider: loop" / "divider: context" on a 32-bit division or
//     remainder by such a read (a config parameter's or the ratio's
//     divider is the context's);
//   - "split bound", "decided once per step" on the compares the split
//     decides, "monotone below the split" on the divisions it ranges
//     (ColumnSplit.h);
//   - "index monotone: checked once per row, N bounds" on a list read
//     (MonotoneLoads.h).
//
//===----------------------------------------------------------------------===//

#include "lib/Analysis/ColumnInvariants.h"
#include "lib/Analysis/ColumnSplit.h"
#include "lib/Analysis/MonotoneLoads.h"
#include "test/lib/TestPasses.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace imeta;

namespace {
struct TestColumnAnalyses
    : PassWrapper<TestColumnAnalyses, OperationPass<SpecOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestColumnAnalyses)
  StringRef getArgument() const final { return "imeta-test-column-analyses"; }
  StringRef getDescription() const final {
    return "Report the analyses of each cols field's column loop as remarks";
  }

  void runOnOperation() override {
    getOperation().walk([](FieldOp field) {
      if (field.getCols())
        report(field);
    });
  }

  static void report(FieldOp field) {
    ColumnInvariants invariants = columnInvariants(field);
    for (Operation *op : invariants.reads)
      op->emitRemark("read once before the column loop");
    field.walk([&](Operation *op) {
      if (!isDivision32(op))
        return;
      Value divisor = op->getOperand(1);
      Operation *def = divisor.getDefiningOp();
      if (invariants.loopDividers.contains(divisor))
        op->emitRemark("divider: loop");
      else if (isa_and_nonnull<GetConfigOp, RatioOp>(def))
        op->emitRemark("divider: context");
    });
    if (std::optional<ColumnSplit> split = columnSplit(field)) {
      if (Operation *def = split->bound.getDefiningOp())
        def->emitRemark("split bound");
      for (Value cond : split->conditions)
        cond.getDefiningOp()->emitRemark("decided once per step");
      for (Operation *op : split->divisions)
        op->emitRemark("monotone below the split");
    }
    for (MonotoneLoad ml : monotoneLoads(field))
      ml.load->emitRemark("index monotone: checked once per row, ")
          << ml.bounds.size() << " bounds";
  }
};
} // namespace

void imeta::test::registerTestColumnAnalyses() {
  PassRegistration<TestColumnAnalyses>();
}
