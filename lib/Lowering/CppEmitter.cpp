//===- CppEmitter.cpp - a spec's generated files
//---------------------------===//
//
// Plans each path, fixes the layout every file names (SpecLayout.h), then
// prints each file by its emitter: the fills first, whose failure sites
// the host source's tables list.
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/CppEmitter.h"
#include "lib/Lowering/EmitCuda.h"
#include "lib/Lowering/EmitDeviceStage.h"
#include "lib/Lowering/EmitDriver.h"
#include "lib/Lowering/EmitFill.h"
#include "lib/Lowering/EmitHeader.h"
#include "lib/Lowering/EmitHost.h"
#include "lib/Lowering/EmitTorch.h"
#include "lib/Transforms/Passes.h"
#include "lib/Analysis/PathPlan.h"

#include "dialect/IMetaSymbols.h"
#include "mlir/IR/OwningOpRef.h"

using namespace mlir;
using namespace imeta;
using namespace imeta::emit;

/// Runs `print` on a CodeStream into `out`.
template <typename Fn>
static LogicalResult printTo(std::string &out, Fn print) {
  llvm::raw_string_ostream os(out);
  CodeStream cs(os);
  return print(cs);
}

std::vector<std::pair<std::string, const std::string *>>
GeneratedFiles::named(bool withTorch) const {
  std::vector<std::pair<std::string, const std::string *>> all = {
      {baseName + ".h", &header},
      {baseName + "_impl.h", &impl},
      {baseName + ".cpp", &source},
      {baseName + "_driver.cpp", &driver}};
  if (!cudaSource.empty()) {
    all.push_back({baseName + "_cuda.h", &cudaHeader});
    all.push_back({baseName + ".cu", &cudaSource});
  }
  if (withTorch)
    all.push_back({baseName + "_torch.cpp", &torch});
  return all;
}

FailureOr<GeneratedFiles> imeta::emitSpec(SpecOp spec, StringRef fileBase) {
  // A rows field output twice gets a copy for its second buffer. The one
  // preparation every emitter relies on: a path that resolves
  // inputs reads them in place, planned on a copy of the spec made for it
  // (imeta-inline-resolves); where it cannot, its first stage is a path
  // of its own (imeta-split-resolves; a spec split already is left as it
  // is).
  separateRepeatedOutputs(spec);
  llvm::DenseSet<Operation *> inline_;
  for (auto path : spec.getBody().front().getOps<PathOp>())
    if (!getPathResolves(path).empty() &&
        !path->hasAttr(kResolvedByAttr) && whyResolvesStay(path).empty())
      inline_.insert(path);
  if (failed(splitResolves(spec, [&](PathOp p) {
        return !inline_.contains(p);
      })))
    return failure();
  std::vector<OwningOpRef<SpecOp>> copies;
  std::vector<PathPlan> plans;
  for (auto path : spec.getBody().front().getOps<PathOp>()) {
    if (inline_.contains(path)) {
      SpecOp copy = cast<SpecOp>(spec->clone());
      copies.emplace_back(copy);
      path = cast<PathOp>(SymbolTable::lookupSymbolIn(copy, path.getSymName()));
      if (failed(inlineResolves(copy, path)))
        return failure();
    }
    FailureOr<PathPlan> plan = planPath(path);
    if (failed(plan))
      return failure();
    plans.push_back(std::move(*plan));
  }
  // Emission adds no symbol: lookups from cached tables (the spec's and
  // its copies').
  CachedSymbolLookups cached;
  const SpecLayout layout(spec, std::move(plans), fileBase.str());
  EmitterState st(layout.naming());
  FillEmitter fills(layout, st);
  HostEmitter host(layout, st);

  GeneratedFiles files;
  files.baseName = layout.fileBase();
  for (const PathPlan &plan : layout.plans())
    if (PathOp(plan.path).getTarget() == Target::gpu) {
      const std::string name = PathOp(plan.path).getSymName().str();
      files.noDeviceStage[name] = DeviceStageEmitter::blocker(layout, plan);
      files.noDeviceStep[name] = DeviceStageEmitter::stepBlocker(layout, plan);
    }
  std::string implBody, hostBody;
  if (failed(printTo(implBody,
                     [&](CodeStream &cs) {
                       for (const PathPlan &plan : layout.plans())
                         if (failed(fills.emitFills(cs, plan)))
                           return failure();
                       return success();
                     })) ||
      failed(printTo(hostBody, [&](CodeStream &cs) {
        for (const PathPlan &plan : layout.plans()) {
          if (failed(host.emitEntry(cs, plan)))
            return failure();
          host.emitPublicEntries(cs, plan);
          DeviceStageEmitter(layout, st).emitMessage(cs, plan);
        }
        return success();
      })))
    return failure();
  (void)printTo(files.header, [&](CodeStream &cs) {
    HeaderEmitter(layout).emit(cs);
    return success();
  });
  (void)printTo(files.impl, [&](CodeStream &cs) {
    fills.emitPrologue(cs);
    cs.raw(implBody);
    cs.line("}  // namespace detail");
    cs.line("}  // namespace {0}", layout.ns());
    return success();
  });
  (void)printTo(files.source, [&](CodeStream &cs) {
    host.emitPrologue(cs);
    host.emitCpuFills(cs);
    cs.raw(hostBody);
    host.emitTables(cs);
    host.emitTableValueMessage(cs);
    cs.line("std::string detail::describe_error(const ErrorRecord &e, "
            "const int32_t (*sets)[kMaxRatios]) { return describe(e, sets); "
            "}");
    cs.line("}  // namespace {0}", layout.ns());
    return success();
  });
  (void)printTo(files.driver, [&](CodeStream &cs) {
    DriverEmitter(layout).emit(cs);
    return success();
  });
  (void)printTo(files.torch, [&](CodeStream &cs) {
    TorchEmitter(layout).emit(cs);
    return success();
  });
  if (layout.hasGpuPath()) {
    llvm::raw_string_ostream hs(files.cudaHeader), cus(files.cudaSource);
    CodeStream h(hs), cu(cus);
    if (failed(CudaEmitter(layout, st).emit(h, cu)))
      return failure();
  }
  return files;
}
