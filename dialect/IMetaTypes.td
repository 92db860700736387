//===- IMetaTypes.td - types of the imeta dialect ----------*- tablegen -*-===//

#ifndef IMETA_TYPES_TD
#define IMETA_TYPES_TD

include "dialect/IMetaDialect.td"
include "dialect/IMetaEnums.td"
include "mlir/IR/AttrTypeBase.td"

class IMeta_Type<string name, string typeMnemonic>
    : TypeDef<IMeta_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def IMeta_ListType : IMeta_Type<"List", "list"> {
  let summary = "a variable-length list of integers (block table, token ids)";
  let description = [{
    The type of a per-sequence input or config parameter holding a list of
    32-bit integers. Elements are read with `imeta.load`, the length with
    `imeta.length`.

    ```mlir
    imeta.input @block_table : !imeta.list {min = 0 : i64}
    ```
  }];
}

def IMeta_PrefixType : IMeta_Type<"Prefix", "prefix"> {
  let summary = "the layout of a prefix sum: exclusive [N+1] or inclusive [N]";
  let description = [{
    Carried by `imeta.prefix_sum` and restated by every `imeta.prefix_at`
    that reads one, so that reading an inclusive sum as an exclusive one is a
    verifier error rather than an off-by-one index at run time.

    ```mlir
    imeta.prefix_sum @cu_seqlens_q = @q : !imeta.prefix<exclusive>
    ```
  }];
  let parameters = (ins EnumParameter<IMeta_Convention>:$convention);
  // Parsed by hand (IMetaDialect.cpp): a misspelt convention gets one
  // message in the spec's words.
  let hasCustomAssemblyFormat = 1;
}

#endif // IMETA_TYPES_TD
