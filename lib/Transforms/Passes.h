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
/// imeta-split-resolves on `spec`, on the paths `split` selects (all by
/// default; emitSpec splits those whose resolutions cannot be inlined).
mlir::LogicalResult
splitResolves(SpecOp spec, llvm::function_ref<bool(PathOp)> split = nullptr);
/// imeta-inline-resolves on `path` of `spec`, a copy of the spec made for
/// it (its other paths are removed): every read of a
/// resolved input becomes a read of its field. A located error where a
/// read cannot be (whyResolvesStay).
mlir::LogicalResult inlineResolves(SpecOp spec, PathOp path);
/// Gives each output of a rows field after a path's first its own copy
/// of the field (the fill writes a field into one buffer as it computes
/// it): `imeta.output "a" = @f` and `"b" = @f` then fill two buffers. The
/// copy computes the same values at the same points after @f, so a
/// failure is @f's first.
void separateRepeatedOutputs(SpecOp spec);
/// Why a path's resolved inputs cannot be read in place (a list read by
/// count()), or "" where they can or there are none.
std::string whyResolvesStay(PathOp path);
} // namespace imeta

#endif // IMETA_TRANSFORMS_PASSES_H
