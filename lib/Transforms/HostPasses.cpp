//===- HostPasses.cpp - a host stage's passes over the sequences ----------===//

#include "lib/Transforms/HostPasses.h"
#include "dialect/IMetaSymbols.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace imeta;

/// Whether a host step can join a loop over sequences: a per-sequence
/// field or rule, or a prefix sum.
static bool isPerSequence(Operation *op) {
  if (auto sum = dyn_cast<PrefixSumOp>(op))
    op = lookupSpecSymbol<FieldOp>(sum, sum.getSourceAttr());
  if (auto rule = dyn_cast<RequireOp>(op))
    return rule.getDomain() == Domain::seq;
  auto field = cast<FieldOp>(op);
  // A field with columns is written column by column, on its own, and so
  // is its sum.
  return field.getDomain() == Domain::seq && field.getWidth() == 1 &&
         !field.getCols();
}

std::vector<HostPass> imeta::hostPasses(const PathPlan &plan) {
  std::vector<HostPass> passes;
  for (size_t k = 0; k < plan.host.size();) {
    size_t end = k;
    llvm::SmallPtrSet<Operation *, 4> sums;
    auto readsRunSum = [&](Operation *op) {
      return llvm::any_of(fieldDependencies(op),
                          [&](Operation *dep) { return sums.contains(dep); });
    };
    while (end < plan.host.size() && isPerSequence(plan.host[end].op) &&
           !readsRunSum(plan.host[end].op)) {
      if (isa<PrefixSumOp>(plan.host[end].op))
        sums.insert(plan.host[end].op);
      ++end;
    }
    end = std::max(end, k + 1);
    passes.push_back({k, end});
    k = end;
  }
  return passes;
}
