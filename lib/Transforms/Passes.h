//===- Passes.h - imeta passes ----------------------------------*- C++ -*-===//

#ifndef IMETA_TRANSFORMS_PASSES_H
#define IMETA_TRANSFORMS_PASSES_H

#include "dialect/IMetaOps.h"
#include "mlir/Pass/Pass.h"

namespace imeta {
#define GEN_PASS_DECL
#include "lib/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lib/Transforms/Passes.h.inc"
/// imeta-split-resolves on `spec` (emitSpec runs it first).
mlir::LogicalResult splitResolves(SpecOp spec);
} // namespace imeta

#endif // IMETA_TRANSFORMS_PASSES_H
