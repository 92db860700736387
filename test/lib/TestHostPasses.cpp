//===- TestHostPasses.cpp - a host stage's passes as remarks --------------===//
//
// imeta-opt -imeta-test-host-passes: for each path, its host stage's
// passes over the sequences (HostPasses.h), one remark each on the path:
// "one loop: @a, @b, rule R1" for a fused run, "alone: @x" otherwise.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/HostPasses.h"
#include "test/lib/TestPasses.h"

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace imeta;

namespace {
struct TestHostPasses : PassWrapper<TestHostPasses, OperationPass<SpecOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestHostPasses)
  StringRef getArgument() const final { return "imeta-test-host-passes"; }
  StringRef getDescription() const final {
    return "Report each path's host-stage passes over the sequences";
  }

  static std::string stepName(Operation *op) {
    if (auto rule = dyn_cast<RequireOp>(op))
      return ("rule " + rule.getRule()).str();
    return ("@" + SymbolTable::getSymbolName(op).getValue()).str();
  }

  void runOnOperation() override {
    for (auto path : getOperation().getBody().front().getOps<PathOp>()) {
      FailureOr<PathPlan> plan = planPath(path);
      if (failed(plan))
        return signalPassFailure();
      for (HostPass pass : hostPasses(*plan)) {
        SmallVector<std::string> names;
        for (size_t k = pass.begin; k < pass.end; ++k)
          names.push_back(stepName(plan->host[k].op));
        path.emitRemark(pass.fused() ? "one loop: " : "alone: ")
            << llvm::join(names, ", ");
      }
    }
  }
};
} // namespace

void imeta::test::registerTestHostPasses() {
  PassRegistration<TestHostPasses>();
}
