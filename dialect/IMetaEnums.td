//===- IMetaEnums.td - enums of the imeta dialect ----------*- tablegen -*-===//

#ifndef IMETA_ENUMS_TD
#define IMETA_ENUMS_TD

include "mlir/IR/EnumAttr.td"

/// Where a field has its values: one for the batch, one per sequence, or a
/// run of rows per sequence whose length a per-sequence count field gives.
def IMeta_Domain : I32EnumAttr<"Domain", "domain of a field or rule", [
    I32EnumAttrCase<"scalar", 0>,
    I32EnumAttrCase<"seq", 1>,
    I32EnumAttrCase<"rows", 2>]> {
  let cppNamespace = "::imeta";
}

/// How a prefix sum is laid out: `exclusive` has N+1 entries starting with 0
/// (each sequence's start), `inclusive` has N (each sequence's end).
def IMeta_Convention : I32EnumAttr<"Convention", "prefix-sum convention", [
    I32EnumAttrCase<"exclusive", 0>,
    I32EnumAttrCase<"inclusive", 1>]> {
  let cppNamespace = "::imeta";
}

/// What imeta.reduce computes over a field's sequences.
def IMeta_Reduction : I32EnumAttr<"Reduction", "reduction over sequences", [
    I32EnumAttrCase<"sum", 0>,
    I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>]> {
  let cppNamespace = "::imeta";
}

/// Which backend a path is generated for.
def IMeta_Target : I32EnumAttr<"Target", "code generation target of a path", [
    I32EnumAttrCase<"cpu", 0>,
    I32EnumAttrCase<"gpu", 1>]> {
  let cppNamespace = "::imeta";
}

#endif // IMETA_ENUMS_TD
