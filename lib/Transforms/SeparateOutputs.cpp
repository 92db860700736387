//===- SeparateOutputs.cpp - a rows field output twice, filled twice ------===//

#include "dialect/IMetaSymbols.h"
#include "lib/Transforms/Passes.h"
#include "lib/Analysis/PathPlan.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace imeta;

/// A path whose outputs now read a copy drops its recorded fill schedule
/// (imeta-schedule-rows ran before the copies, and a field it lists may no
/// longer be one the path needs): the planner groups its rows afresh.
static void dropStaleSchedules(SpecOp spec,
                               const llvm::DenseSet<Attribute> &copies) {
  for (PathOp path : spec.getBody().front().getOps<PathOp>())
    if (path->hasAttr(kFillScheduleAttr) &&
        llvm::any_of(getPathOutputs(path), [&](OutputOp out) {
          return copies.contains(out.getSourceAttr());
        }))
      path->removeAttr(kFillScheduleAttr);
}

/// Whether some path outputs a rows field twice (looked up from cached
/// symbol tables: a spec of S symbols is checked in O(S)).
static bool hasRepeatedRowsOutputs(SpecOp spec) {
  CachedSymbolLookups cached;
  for (PathOp path : spec.getBody().front().getOps<PathOp>()) {
    llvm::DenseSet<Operation *> output;
    for (OutputOp out : getPathOutputs(path)) {
      auto field = lookupSpecSymbol<FieldOp>(out, out.getSourceAttr());
      if (field && field.getDomain() == Domain::rows &&
          !output.insert(field).second)
        return true;
    }
  }
  return false;
}

void imeta::separateRepeatedOutputs(SpecOp spec) {
  if (!hasRepeatedRowsOutputs(spec))
    return;
  // The copies add symbols: looked up without a cache from here on.
  UncachedSymbolLookups uncached;
  llvm::DenseSet<Attribute> copies;
  for (PathOp path : spec.getBody().front().getOps<PathOp>()) {
    llvm::DenseSet<Operation *> output;
    for (OutputOp out : getPathOutputs(path)) {
      auto field = lookupSpecSymbol<FieldOp>(out, out.getSourceAttr());
      if (!field || field.getDomain() != Domain::rows ||
          output.insert(field).second)
        continue;
      // A name of its own: the field's and the output's, no '__' between
      // (C++ reserves it), no '.' (a nested output name's).
      std::string base = (StringRef(field.getSymName()).rtrim('_') + "_as_" +
                          outputIdentifier(StringRef(out.getName()).ltrim('_')))
                             .str();
      OpBuilder b(field);
      b.setInsertionPointAfter(field);
      auto copy = cast<FieldOp>(b.clone(*field));
      copy.setSymName(freshSymbolName(spec, base));
      auto ref = FlatSymbolRefAttr::get(copy.getSymNameAttr());
      copies.insert(ref);
      output.insert(copy);
      if (out->getParentOp() == path) {
        out.setSourceAttr(ref);
        continue;
      }
      // Inherited: this path overrides it (the base keeps its own), in the
      // base's position.
      OpBuilder in = OpBuilder::atBlockEnd(&path.getBody().front());
      auto override = cast<OutputOp>(in.clone(*out));
      override.setSourceAttr(ref);
    }
  }
  if (!copies.empty())
    dropStaleSchedules(spec, copies);
}
