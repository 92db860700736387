//===- DropUnusedFields.cpp - remove fields no path needs -----------------===//

#include "dialect/CompactFormula.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"

namespace imeta {
#define GEN_PASS_DEF_DROPUNUSEDFIELDS
#include "lib/Transforms/Passes.h.inc"
} // namespace imeta

using namespace mlir;
using namespace imeta;

namespace {
struct DropUnusedFieldsPass
    : imeta::impl::DropUnusedFieldsBase<DropUnusedFieldsPass> {
  void runOnOperation() override {
  UncachedSymbolLookups uncached; // symbols are added and removed
    SpecOp spec = getOperation();
    // A compact formula's reads are known once it is expanded.
    if (failed(expandCompactFormulas(spec)))
      return signalPassFailure();
    mlir::SymbolTable table(spec);
    llvm::SetVector<Operation *> live;
    // Roots: path outputs, the fields paths resolve inputs from, and every
    // symbol a rule reads.
    auto markUses = [&](Operation *from) {
      if (auto uses = mlir::SymbolTable::getSymbolUses(from))
        for (const mlir::SymbolTable::SymbolUse &use : *uses)
          if (Operation *def = table.lookup(
                  use.getSymbolRef().getRootReference().getValue()))
            if (isa<FieldOp, PrefixSumOp>(def))
              live.insert(def);
    };
    spec.walk([&](Operation *op) {
      if (isa<OutputOp, RequireOp, ResolveOp>(op))
        markUses(op);
    });
    // Transitive closure over the symbols the live fields read.
    for (unsigned i = 0; i < live.size(); ++i)
      markUses(live[i]);
    for (Operation &op : llvm::make_early_inc_range(spec.getBody().front()))
      if (isa<FieldOp, PrefixSumOp>(op) && !live.contains(&op))
        op.erase();
  }
};
} // namespace
