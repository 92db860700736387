//===- Passes.td - imeta passes ----------------------------*- tablegen -*-===//

#ifndef IMETA_TRANSFORMS_PASSES_TD
#define IMETA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DropUnusedFields : Pass<"imeta-drop-unused-fields", "::imeta::SpecOp"> {
  let summary = "Remove fields that no path produces or reads";
  let description = [{
    A field (or prefix sum) is live if a path outputs it, or a live field
    reads it (imeta.get, imeta.prefix_at, imeta.prefix_total, rows(@count),
    live(@n), a prefix sum's summand), or a rule reads it. Everything else
    is erased, so backends only see what some path needs.

    Before:
    ```mlir
    imeta.field @used seq { ... }
    imeta.field @unused seq { ... }
    imeta.path @p target(cpu) { imeta.output "used" = @used }
    ```
    After:
    ```mlir
    imeta.field @used seq { ... }
    imeta.path @p target(cpu) { imeta.output "used" = @used }
    ```
  }];
}

#endif // IMETA_TRANSFORMS_PASSES_TD
