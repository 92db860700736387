//===- SplitResolves.cpp - a resolving path's stage as a path of its own --===//
//
// A path with imeta.resolve computes its base's fields on a batch whose
// inputs are fields of the batch as given (SPEC-async.md). The generated
// CPU code runs it in two stages: first a path `@P_resolve` (target cpu)
// that outputs the resolving fields (a list input's rows and their counts)
// and checks the rules that read state, then @P itself on the resolved
// inputs. This pass adds that first path, as the emitters plan any path.
//
//===----------------------------------------------------------------------===//

#include "dialect/CompactFormula.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Transforms/Passes.h"
#include "lib/Analysis/PathPlan.h"

#include "mlir/IR/Builders.h"

namespace imeta {
#define GEN_PASS_DEF_SPLITRESOLVES
#include "lib/Transforms/Passes.h.inc"
} // namespace imeta

using namespace mlir;
using namespace imeta;

LogicalResult imeta::splitResolves(SpecOp spec,
                                   llvm::function_ref<bool(PathOp)> split) {
  UncachedSymbolLookups uncached; // paths are added
  // Which rules read state is known once their formulas are ops.
  if (failed(expandCompactFormulas(spec)))
    return failure();
  MLIRContext *ctx = spec.getContext();
  for (PathOp path : llvm::to_vector(spec.getBody().front().getOps<PathOp>())) {
    if (path->hasAttr(kResolveStageAttr) || path->hasAttr(kResolvedByAttr))
      continue;
    SmallVector<ResolveOp> resolves = getPathResolves(path);
    if (resolves.empty() || (split && !split(path)))
      continue;
    std::string name = (path.getSymName() + "_resolve").str();
    if (SymbolTable::lookupSymbolIn(spec, name))
      return path.emitOpError("resolves inputs, and its first stage is the "
                              "path @")
             << name << ", a name the spec already uses; rename that";
    SmallVector<Attribute> needs;
    for (Operation *op : getPathNeeds(path))
      needs.push_back(FlatSymbolRefAttr::get(
          ctx, SymbolTable::getSymbolName(op).getValue()));
    OpBuilder b(ctx);
    b.setInsertionPointAfter(path);
    auto stage = PathOp::create(
        b, path.getLoc(), b.getStringAttr(name),
        TargetAttr::get(ctx, Target::cpu), nullptr,
        needs.empty() ? nullptr : b.getArrayAttr(needs));
    stage.getBody().emplaceBlock();
    stage->setAttr(kResolveStageAttr,
                   FlatSymbolRefAttr::get(path.getSymNameAttr()));
    OpBuilder in = OpBuilder::atBlockEnd(&stage.getBody().front());
    for (RequireOp rule : allRules(path))
      if (readsState(rule))
        in.clone(*rule);
    for (ResolveOp r : resolves) {
      auto field = lookupSpecSymbol<FieldOp>(r, r.getFieldAttr());
      OutputOp::create(in, r.getLoc(), in.getStringAttr(r.getInput()),
                       r.getFieldAttr(), nullptr, nullptr);
      if (field.getDomain() == Domain::rows)
        OutputOp::create(in, r.getLoc(),
                         in.getStringAttr(r.getInput() + "_count"),
                         field.getCountAttr(), nullptr, nullptr);
    }
    path->setAttr(kResolvedByAttr, FlatSymbolRefAttr::get(ctx, name));
  }
  return success();
}

namespace {
struct SplitResolvesPass : imeta::impl::SplitResolvesBase<SplitResolvesPass> {
  void runOnOperation() override {
    if (failed(splitResolves(getOperation())))
      signalPassFailure();
  }
};
} // namespace
