//===- SeparateOutputs.cpp - a rows field output twice, filled twice ------===//

#include "dialect/IMetaSymbols.h"
#include "lib/Transforms/Passes.h"
#include "lib/Transforms/PathPlan.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace imeta;

/// Puts each copy a path outputs right after its field in the path's
/// recorded fill schedule (imeta-schedule-rows ran before the copies).
static void scheduleCopies(
    PathOp path,
    const llvm::DenseMap<Attribute, SmallVector<FlatSymbolRefAttr>> &copies) {
  auto groups = path->getAttrOfType<ArrayAttr>(kFillScheduleAttr);
  if (!groups)
    return;
  llvm::DenseSet<Attribute> output;
  for (OutputOp out : getPathOutputs(path))
    output.insert(out.getSourceAttr());
  Builder b(path.getContext());
  SmallVector<Attribute> newGroups;
  for (Attribute g : groups) {
    auto list = dyn_cast<ArrayAttr>(g);
    if (!list) // malformed: the planner names it
      return;
    SmallVector<Attribute> fields;
    for (Attribute sym : list) {
      fields.push_back(sym);
      for (FlatSymbolRefAttr copy : copies.lookup(sym))
        if (output.contains(copy))
          fields.push_back(copy);
    }
    newGroups.push_back(b.getArrayAttr(fields));
  }
  path->setAttr(kFillScheduleAttr, b.getArrayAttr(newGroups));
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
  llvm::DenseMap<Attribute, SmallVector<FlatSymbolRefAttr>> copies;
  for (PathOp path : spec.getBody().front().getOps<PathOp>()) {
    llvm::DenseSet<Operation *> output;
    for (OutputOp out : getPathOutputs(path)) {
      auto field = lookupSpecSymbol<FieldOp>(out, out.getSourceAttr());
      if (!field || field.getDomain() != Domain::rows ||
          output.insert(field).second)
        continue;
      // A name of its own: the field's and the output's, no '__' between
      // (C++ reserves it).
      std::string base = (StringRef(field.getSymName()).rtrim('_') + "_as_" +
                          StringRef(out.getName()).ltrim('_'))
                             .str();
      OpBuilder b(field);
      b.setInsertionPointAfter(field);
      auto copy = cast<FieldOp>(b.clone(*field));
      copy.setSymName(freshSymbolName(spec, base));
      auto ref = FlatSymbolRefAttr::get(copy.getSymNameAttr());
      copies[out.getSourceAttr()].push_back(ref);
      out.setSourceAttr(ref);
      output.insert(copy);
    }
  }
  if (copies.empty())
    return;
  for (PathOp path : spec.getBody().front().getOps<PathOp>())
    scheduleCopies(path, copies);
}
