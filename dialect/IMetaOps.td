//===- IMetaOps.td - ops of the imeta dialect --------------*- tablegen -*-===//
//
// Declarations (spec, config, inputs, rules, fields, paths) and the
// formula ops used inside field and rule bodies.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_OPS_TD
#define IMETA_OPS_TD

include "dialect/IMetaDialect.td"
include "dialect/IMetaEnums.td"
include "dialect/IMetaTypes.td"
include "dialect/FormulaOpInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

/// Integer types a formula computes in: i1 (bool), i32 (the fields' type)
/// and i64 (for bounds that must be checked without overflowing).
def IMeta_Int : AnyTypeOf<[I1, I32, I64]>;

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

def IMeta_SpecOp : IMeta_Op<"spec", [Symbol, SymbolTable, IsolatedFromAbove,
                                     NoTerminator, SingleBlock]> {
  let summary = "a metadata spec: config, inputs, rules, fields and paths";
  let description = [{
    The unit a backend compiles. Every symbol of the spec (config
    parameters, inputs, fields, paths) lives in its one symbol table.
    `overflow_rule` names the rule an int32 overflow breaks, for messages.

    ```mlir
    imeta.spec @deepinfer_v4 {
      imeta.config @block_size : i32 {min = 1 : i64}
      imeta.input @seqlen_q : i32 {min = 1 : i64}
      imeta.field @q seq {
        %q = imeta.get_input @seqlen_q : i32
        imeta.yield %q : i32
      }
      imeta.path @prompt target(cpu) {
        imeta.output "q" = @q
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<StrAttr>:$overflow_rule);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def IMeta_ConfigOp : IMeta_Op<"config", [Symbol, HasParent<"SpecOp">]> {
  let summary = "a config parameter, one value per batch";
  let description = [{
    Read from the batch's `config` object under the symbol's name. `type` is
    `i32` (an integer), `i1` (a JSON bool) or `!imeta.list`. `min` bounds an
    integer (every element of a list); `rule` names the SPEC rule a bad value
    breaks, for the error message. An `optional` parameter belongs to some
    paths only: the paths that list it in `needs` require it (present and
    at least `min`); every other path ignores it (0, false or the empty
    list).

    ```mlir
    imeta.config @block_size : i32 {min = 1 : i64, rule = "R1"}
    imeta.config @cp_size : i32 {min = 1 : i64, optional, rule = "R7"}
    ```
    becomes, in generated code, a member `int32_t block_size;` of the
    config struct.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttr:$type,
                       OptionalAttr<I64Attr>:$min, UnitAttr:$optional,
                       OptionalAttr<StrAttr>:$rule);
  let assemblyFormat = "$sym_name `:` $type attr-dict";
  let hasVerifier = 1;
}

def IMeta_RatiosOp : IMeta_Op<"ratios", [Symbol, HasParent<"SpecOp">]> {
  let summary = "a config list of compression ratios that buckets fields";
  let description = [{
    A config parameter holding distinct integers >= 1 (it may be empty).
    A field declared `over` a ratio set has one bucket `NAME.n` per ratio n.

    ```mlir
    imeta.ratios @dense_ratios {rule = "R1"}
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, OptionalAttr<StrAttr>:$rule);
  let assemblyFormat = "$sym_name attr-dict";
}

def IMeta_RatioUnionOp : IMeta_Op<"ratio_union", [Symbol, HasParent<"SpecOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the sorted union of ratio sets";
  let description = [{
    ```mlir
    imeta.ratio_union @ca_ratios = [@dense_ratios, @sparse_ratios]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       FlatSymbolRefArrayAttr:$members);
  let assemblyFormat = "$sym_name `=` $members attr-dict";
}

def IMeta_AxisOp : IMeta_Op<"axis", [Symbol, HasParent<"SpecOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "an outer axis: the indices 0 .. K-1 of a config count";
  let description = [{
    An index set other than the sequences (TensorRT-LLM's KV cache pools,
    a loop, a chunk): the buckets 0 .. K-1, K an i32 config parameter (at
    most 16; an `optional` one is checked by the paths that need it, and
    elsewhere a count out of range makes no index). A field declared
    `over` an axis has one bucket an index, `n` the index; its output is
    laid out `[K][rows][width]`, the axis outer (bucket `p` of output
    `NAME` is `NAME.p` in the field file). An axis is used as a ratio set
    is (`over`, `ratio_count`) but joins no union.

    ```mlir
    imeta.config @num_pools : i32 {min = 0 : i64}
    imeta.axis @pools = @num_pools
    imeta.field @offsets seq cols(@w) over @pools = "..."
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, FlatSymbolRefAttr:$count,
                       OptionalAttr<StrAttr>:$rule);
  let assemblyFormat = "$sym_name `=` $count attr-dict";
}

def IMeta_InputOp : IMeta_Op<"input", [Symbol, HasParent<"SpecOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a per-sequence input from the scheduler";
  let description = [{
    Read from every object of the batch's `sequences` under the symbol's
    name. `optional` inputs may be omitted (0, false or the empty list).

    A `resident` list lives across steps in a table of rows (an engine's
    padded `[rows, max_len]` block table with per-row lengths, on the host
    or the device): the generated API takes it as `NAME_table` (a
    `ListTable`: rows, row stride, lengths, the values' exclusive `bound`)
    plus `NAME_row` (each sequence's row), read in place and never
    repacked, beside the packed form every list has. From a table, nothing
    per step scans the values: `min` and `bound` are checked where values
    are written (runtime/ResidentTable.h), and the int32 proof takes
    `[min, bound - 1]` as their range. The evaluator and the batch file see
    an ordinary list.

    ```mlir
    imeta.input @seqlen_q : i32 {min = 1 : i64, rule = "R3"}
    imeta.input @draft_tokens : !imeta.list {optional}
    imeta.input @block_table : !imeta.list {min = 0 : i64, resident}
    ```

    A `slot` input is request state the engine keeps (SPEC-async.md): not
    one value per sequence but an array indexed by a request slot, one
    entry (or, for a list, one row) per slot, read at the sequence's value
    of the slot input it names. The batch file gives it under `state`,
    keyed by `key` (else its name); every state array of one slot input
    has the same length, the number of slots, and the slot input lies in
    [-1, slots): -1 is no state, where a state input reads 0 (a list, the
    empty list). A
    state list with `width = @param` has rows of exactly that many
    entries. `min` is checked at the slots a batch reads, only there. A
    formula reads a state input as it reads any input; a path reads it
    in place where it is kept (on the device, for a GPU path). State
    inputs and their slot input are `optional`: a path that reads them
    `needs` them.

    ```mlir
    imeta.input @slot : i32 {optional, rule = "R11"}
    imeta.input @num_drafts : i32 {slot = @slot, min = 0 : i64, optional}
    imeta.input @slot_block_table : !imeta.list {slot = @slot,
        key = "block_table", min = 0 : i64, optional}
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttr:$type,
                       OptionalAttr<I64Attr>:$min, UnitAttr:$optional,
                       OptionalAttr<StrAttr>:$rule, UnitAttr:$resident,
                       OptionalAttr<FlatSymbolRefAttr>:$slot,
                       OptionalAttr<StrAttr>:$key,
                       OptionalAttr<FlatSymbolRefAttr>:$width);
  let extraClassDeclaration = [{
    /// Whether this input is request state read at a slot.
    bool isState() { return bool(getSlotAttr()); }
    /// Its key in the batch file (`state.KEY` for a state input).
    llvm::StringRef getBatchKey() {
      return getKey() ? *getKey() : getSymName();
    }
  }];
  let assemblyFormat = "$sym_name `:` $type attr-dict";
  let hasVerifier = 1;
}

def IMeta_FieldOp : IMeta_Op<"field", [Symbol, HasParent<"SpecOp">,
    IsolatedFromAbove, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a metadata field and the formula of its values";
  let description = [{
    The body computes the field's value(s) at one point of its domain and
    yields them; yielding K values makes each point a row of K (`[X, K]`).

    - `scalar`: one value for the batch;
    - `seq`: one value per sequence (`[N]`);
    - `rows(@count)`: `count(i)` rows per sequence i, concatenated in batch
      order (`[sum count]`); `imeta.row_index` is the row's index within
      its sequence, `imeta.row` its index in the whole field.
    - `seq(@cond)`: one value per sequence where `cond` (an i1 `seq`
      field) holds, in batch order (a subset: vLLM's prefill-only
      tensors); `imeta.row` is the member's index among the members, a
      prefix sum of it has one entry per member (and the closing one).
      `imeta-expand-formulas` lowers it to a `rows` field of a hidden
      `cond ? 1 : 0` count (dialect/SubsetLowering.h).
    `over @set` makes one bucket per ratio of the set, or index of an axis
    (`imeta.ratio`).
    `cols(@width)` makes each row `width` columns wide (`imeta.col_index`);
    `@width` is an i32 config parameter or a scalar field (so a bucketed
    field may be wider in one bucket than another). With `live(@n)`, only
    columns below `n(i)` are computed and written, the rest are left
    unspecified.

    ```mlir
    imeta.field @positions rows(@q) {
      %s = imeta.get @query_start : i32
      %j = imeta.row_index : i32
      %pos = arith.addi %s, %j : i32
      imeta.yield %pos : i32
    }
    ```
    or, compact (expanded into the same ops by imeta-expand-formulas,
    which the tools run first; dialect/CompactFormula.h):
    ```mlir
    imeta.field @positions rows(@q) = "query_start + j"
    ```
    becomes, in the generated CPU routine,
    ```c++
    for (int32_t i = 0; i < N; ++i)
      for (int32_t j = 0; j < q[i]; ++j, ++r)
        positions[r] = query_start[i] + j;
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, IMeta_Domain:$domain,
                       OptionalAttr<FlatSymbolRefAttr>:$count,
                       OptionalAttr<FlatSymbolRefAttr>:$ratios,
                       OptionalAttr<FlatSymbolRefAttr>:$cols,
                       OptionalAttr<FlatSymbolRefAttr>:$live,
                       OptionalAttr<StrAttr>:$formula,
                       OptionalAttr<TypeAttr>:$formula_type,
                       OptionalAttr<LocationAttr>:$formula_loc);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    $sym_name $domain (`(` $count^ `)`)? (`over` $ratios^)?
    (`cols` `(` $cols^ `)`)? (`live` `(` $live^ `)`)?
    (`=` custom<Formula>($formula, $formula_loc)^ (`:` $formula_type^)?)?
    attr-dict-with-keyword ($body^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The values the body yields at one point of the domain.
    YieldOp getYield();
    /// Values per point: the yield's arity (1 for a flat field).
    unsigned getWidth();
    /// The element type shared by every yielded value.
    ::mlir::Type getElementType();
  }];
}

def IMeta_FormulaDefOp : IMeta_Op<"formula", [Symbol, HasParent<"SpecOp">]> {
  let summary = "a named sub-formula that compact formulas call";
  let description = [{
    An expression over its parameters and the spec's names, in the compact
    formula language (dialect/CompactFormula.h); a compact field calls it
    like a function and gets its ops in place, the arguments for the
    parameters.

    ```mlir
    imeta.formula @slot(p) = "block_table[p / B] * B + p % B"
    imeta.field @slot_mapping rows(@q) = "slot(k - q + j)"
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$params,
                       StrAttr:$text, OptionalAttr<LocationAttr>:$text_loc);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def IMeta_PrefixSumOp : IMeta_Op<"prefix_sum", [Symbol, HasParent<"SpecOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a prefix sum of a per-sequence field";
  let description = [{
    Its convention is part of its type; a bucketed source gives a bucketed
    sum. A source with several values a sequence (K yielded values, or
    `cols(@w)`) gives one sum per column, read with
    `imeta.prefix_at @cu[%i, %col]` and `imeta.prefix_total @cu[%col]`.

    ```mlir
    imeta.prefix_sum @cu_seqlens_q = @q : !imeta.prefix<exclusive>
    ```
    becomes `cu[0] = 0; for (i...) cu[i + 1] = cu[i] + q[i];` (exclusive)
    or `acc += q[i]; cu[i] = acc;` (inclusive).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, FlatSymbolRefAttr:$source,
                       TypeAttrOf<IMeta_PrefixType>:$type);
  let assemblyFormat = "$sym_name `=` $source `:` $type attr-dict";
  let extraClassDeclaration = [{
    Convention getConvention() {
      return ::llvm::cast<PrefixType>(getType()).getConvention();
    }
  }];
}

def IMeta_RequireOp : IMeta_Op<"require", [IsolatedFromAbove,
    ParentOneOf<["SpecOp", "PathOp"]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a rule every batch must satisfy";
  let description = [{
    The body yields an `i1` that must be true for the batch (`scalar`), for
    every sequence (`seq`), and for every ratio of `over @set`. A rule
    inside a path applies to that path's batches only. Rules run in order,
    after the structural checks of config and inputs; the first broken one
    is reported as `sequence i: RULE: message (x = 1, y = 2)`, with the
    named values the body's top block read (RuleOperands.h).

    ```mlir
    imeta.require "R3" "seqlen_q <= seqlen_k" seq {
      %q = imeta.get_input @seqlen_q : i32
      %k = imeta.get_input @seqlen_k : i32
      %ok = arith.cmpi sle, %q, %k : i32
      imeta.yield %ok : i1
    }
    ```
  }];
  let arguments = (ins StrAttr:$rule, StrAttr:$message, IMeta_Domain:$domain,
                       OptionalAttr<FlatSymbolRefAttr>:$ratios,
                       OptionalAttr<StrAttr>:$formula,
                       OptionalAttr<LocationAttr>:$formula_loc);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    $rule $message $domain (`over` $ratios^)?
    (`=` custom<Formula>($formula, $formula_loc)^)?
    attr-dict-with-keyword ($body^)?
  }];
  let hasVerifier = 1;
}

def IMeta_PathOp : IMeta_Op<"path", [Symbol, HasParent<"SpecOp">,
    NoTerminator, SingleBlock,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "an execution path: the fields it produces and its target";
  let description = [{
    Lists, with `imeta.output`, the fields a path produces under their
    output names, and holds the rules specific to its batches. A path that
    `extends` another has all of its outputs and rules; an output of the
    same name replaces the base's (in the base's position), and
    `imeta.drop "name"` leaves the base's out. A path may extend several
    (`extends @prompt_yoco, @prompt_cp`): their paths in order, each
    common base once (its outputs and rules first), a later one's output
    replacing an earlier one's of the same name. `needs` lists the optional
    config parameters and inputs its batches must give (with its base's):
    a batch without one is refused, naming the key, the path and the
    parameter's rule; other paths ignore them.

    ```mlir
    imeta.path @decode target(cpu) {
      imeta.output "cu_seqlens_q" = @cu_seqlens_q
      imeta.output "positions" = @positions
    }
    imeta.path @decode_zos target(gpu) extends @decode {
      imeta.output "cu_seqlens_q" = @cu_seqlens_q_inclusive
    }
    imeta.path @prompt_cp target(cpu) extends @prompt needs [@cp_size] {
      imeta.output "cp_mirror_len" = @cp_mirror_len
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, IMeta_Target:$target,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$bases,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$needs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `target` `(` $target `)` (`extends` custom<PathBases>($bases)^)?
    (`needs` $needs^)? attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

def IMeta_DropOp : IMeta_Op<"drop", [HasParent<"PathOp">]> {
  let summary = "an output of the base path this path does not produce";
  let description = [{
    In a path that `extends` another: the base's output of that name is
    not one of this path's (a variant that needs less than its base).

    ```mlir
    imeta.path @decode_lite target(cpu) extends @decode {
      imeta.drop "gate_force_random"
    }
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let assemblyFormat = "$name attr-dict";
}

def IMeta_ResolveOp : IMeta_Op<"resolve", [HasParent<"PathOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "where a path's input comes from: a field of the given batch";
  let description = [{
    In this path (and those that extend it), every read of the input is a
    read of the field, computed on the batch as given: a scalar input
    from a `seq` field of its type, a list input from a `rows` field of
    one i32 value a row (sequence i's list is its rows). The batch does
    not give the input; the path's fields and rules see the resolved
    batch. So a path computes its base's fields from other inputs, e.g.
    from request state kept by slot (SPEC-async.md). Rules that read a
    `slot` input's state are checked on the batch as given, before the
    resolution; the others on the resolved batch, and a resolved input's
    `min` is checked there, as a batch file's is. So a rule that reads
    state may not read a resolved input (the verifier says which).

    ```mlir
    imeta.field @async_q seq = "slot >= 0 ? 1 + num_drafts : 1"
    imeta.path @decode_async target(gpu) extends @decode_varlen {
      imeta.resolve @seqlen_q = @async_q
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$input, FlatSymbolRefAttr:$field);
  let assemblyFormat = "$input `=` $field attr-dict";
  let extraClassDeclaration = [{
    /// No rule that reads request state reads `input` (this resolves it).
    ::mlir::LogicalResult verifyStateRules(InputOp input);
  }];
}

def IMeta_OutputOp : IMeta_Op<"output", [HasParent<"PathOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a field a path produces, under its output name";
  let description = [{
    A field bucketed by ratio produces `NAME.n` for each ratio n.

    `fill(v)` declares the value of the buffer's rows past the live batch:
    every step writes `v` into each bucket's rows from its live row count
    up to the buffer's capacity (all columns), so a graph captured at the
    largest batch reads `v` in its padding (vLLM pads `slot_mapping` with
    -1). Not for a scalar output; 0 or 1 for a bool one.

    `fill(v) rows(@len)` gives the output `len` rows, a scalar field at
    least the field's row count (an error naming the output otherwise):
    the rows past the field's are `v`, and the buffer's shape is [len]
    (a list every rank pads to the same length, SPEC-variants.md §5). Not
    for a bucketed field.

    `optional`: the output is absent from a step whose field has no point
    (a `seq` field or prefix sum over a batch without sequences, a `rows`
    field, or one bucket of it, without rows), as vLLM sets its
    prefill-only tensors to None when no sequence prefills: the field
    file leaves its key out, and the torch binding's `present()` and the
    C++ API's `present(info, buffer, bucket)` say so (after a host-stage
    step; a device step's row counts stay on the device). Not for a scalar (one
    value whatever the batch) or with `rows(@len)` (it has len rows).

    ```mlir
    imeta.output "klen" = @klen   // klen.4, klen.128, ...
    imeta.output "slot_mapping" = @slot_mapping fill(-1)
    imeta.output "contrib_index" = @contrib_rows fill(-1) rows(@pad_len)
    imeta.output "prefill.slot_mapping" = @prefill_slots optional
    ```
  }];
  let arguments = (ins StrAttr:$name, FlatSymbolRefAttr:$source,
                       OptionalAttr<I64Attr>:$fill,
                       OptionalAttr<FlatSymbolRefAttr>:$rows,
                       UnitAttr:$optional);
  let assemblyFormat = [{
    $name `=` $source (`fill` `(` $fill^ `)`)? (`rows` `(` $rows^ `)`)?
    (`optional` $optional^)? attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Formula ops
//===----------------------------------------------------------------------===//

def IMeta_YieldOp : IMeta_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["FieldOp", "RequireOp", "ReduceRowsOp"]>]> {
  let summary = "the value(s) of a field or rule at one point";
  let description = [{
    ```mlir
    imeta.yield %block, %begin, %end, %dst : i32, i32, i32, i32
    ```
  }];
  let arguments = (ins Variadic<IMeta_Int>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

/// Base of the ops a formula holds: pure, their meaning in
/// FormulaOpInterface (implemented in FormulaOps.cpp).
/// `overrides`: the interface's methods with a default that the op
/// implements (getFieldDependencies where it reads a field, ...).
class IMeta_FormulaOp<string mnemonic, list<Trait> traits = [],
                      list<string> overrides = []>
    : IMeta_Op<mnemonic, !listconcat([Pure,
          DeclareOpInterfaceMethods<IMeta_FormulaOpInterface, overrides>],
          traits)>;

/// Base of the formula ops whose value depends on the point being computed.
class IMeta_ContextOp<string mnemonic, list<string> overrides = []>
    : IMeta_FormulaOp<mnemonic, [], overrides> {
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def IMeta_SeqIndexOp : IMeta_ContextOp<"seq_index"> {
  let summary = "index i of the current sequence in batch order";
  let description = [{
    Valid in `seq` and `rows` domains. `%i = imeta.seq_index : i32` becomes
    the loop variable `i` (CPU) or `blockIdx.x` (GPU).
  }];
}

def IMeta_RowIndexOp : IMeta_ContextOp<"row_index"> {
  let summary = "index j of the current row within its sequence";
  let description = [{
    Valid in `rows` domains. `%j = imeta.row_index : i32` becomes the inner
    loop variable `j` (CPU) or the thread's row (GPU).
  }];
}

def IMeta_RowOp : IMeta_ContextOp<"row"> {
  let summary = "index r of the current row in the whole field";
  let description = [{
    Valid in `rows` domains: the start of the sequence's rows plus
    `imeta.row_index`. `%r = imeta.row : i32` becomes `r`.
  }];
}

def IMeta_ColIndexOp : IMeta_ContextOp<"col_index",
    ["columnTrend", "movesByOneColumn"]> {
  let summary = "index of the current column of a `cols` field";
  let description = [{
    `%c = imeta.col_index : i32` becomes the column loop variable.
  }];
}

def IMeta_RatioOp : IMeta_ContextOp<"ratio", ["isBucketInvariantRead"]> {
  let summary = "the ratio n of the current bucket";
  let description = [{
    Valid in fields and rules declared `over` a ratio set.
    `%n = imeta.ratio : i32` becomes the bucket's constant n.
  }];
}

def IMeta_PrevOp : IMeta_FormulaOp<"prev", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFieldDependencies"]> {
  let summary = "a field's value at the previous sequence (a fold)";
  let description = [{
    In a `seq` field, the value (the `column`-th of its values) this field
    took at the previous sequence, or, naming another `seq` field of one
    value, that field's; 0 (false) at the first sequence. A field that
    reads its own is a fold over the sequences in batch order whose state
    is its values: FlashMLA's tile scheduler carries the SM part it
    reached and the payload left there from sequence to sequence.
    Computed on the host stage in order (a GPU path runs it there: no
    device step).

    ```mlir
    %left = imeta.prev [0] : i32        // this field's
    %part = imeta.prev @part [0] : i32  // field @part's
    ```
    compact: `prev()`, `prev(1)` (this field's values), `prev(part)`.
  }];
  let arguments = (ins OptionalAttr<FlatSymbolRefAttr>:$field,
                       I64Attr:$column);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat =
      "($field^)? `[` $column `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def IMeta_NumSeqsOp : IMeta_FormulaOp<"num_seqs"> {
  let summary = "the number of sequences N of the batch";
  let description = [{ `%N = imeta.num_seqs : i32` }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def IMeta_GetConfigOp : IMeta_FormulaOp<"get_config", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["isBucketInvariantRead"]> {
  let summary = "the value of a scalar config parameter";
  let description = [{ `%B = imeta.get_config @block_size : i32` }];
  let arguments = (ins FlatSymbolRefAttr:$param);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat = "$param attr-dict `:` type($result)";
}

def IMeta_GetInputOp : IMeta_FormulaOp<"get_input", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["isBucketInvariantRead", "getInputRead"]> {
  let summary = "the current sequence's value of a scalar input";
  let description = [{ `%q = imeta.get_input @seqlen_q : i32` }];
  let arguments = (ins FlatSymbolRefAttr:$input);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def IMeta_LoadOp : IMeta_FormulaOp<"load", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFailureSubject", "getInputRead", "readsListElements"]> {
  let summary = "an element of the current sequence's list input";
  let description = [{
    Reading outside the list is an error naming the list and sequence.
    `%b = imeta.load @block_table[%idx] : i32` becomes
    `block_table[i][idx]`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$input, I32:$index);
  let results = (outs I32:$result);
  let assemblyFormat = "$input `[` $index `]` attr-dict `:` type($result)";
}

def IMeta_LengthOp : IMeta_FormulaOp<"length", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>], ["getInputRead"]> {
  let summary = "the length of the current sequence's list input";
  let description = [{ `%n = imeta.length @token_ids : i32` }];
  let arguments = (ins FlatSymbolRefAttr:$input);
  let results = (outs I32:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def IMeta_CountOp : IMeta_FormulaOp<"count", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFailureSubject", "getInputRead", "readsListElements"]> {
  let summary = "how many of a list's elements in [lo, hi) lie in [vlo, vhi]";
  let description = [{
    Counts the current sequence's list elements at positions lo .. hi - 1
    whose values lie in [vlo, vhi]; an empty range (hi <= lo) counts 0, a
    range reaching outside the list is an error naming it. Whether a
    token occurs in a window, whether every element is in bounds:
    ```mlir
    %n = imeta.count @token_ids[%lo, %hi] in [%img, %img] : i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$input, I32:$lo, I32:$hi, I32:$vlo,
                       I32:$vhi);
  let results = (outs I32:$result);
  let assemblyFormat = [{
    $input `[` $lo `,` $hi `]` `in` ` ` `[` $vlo `,` $vhi `]` attr-dict `:`
    type($result)
  }];
}

def IMeta_ConfigAtOp : IMeta_FormulaOp<"config_at", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFailureSubject"]> {
  let summary = "an element of a config list parameter (a lookup table)";
  let description = [{
    Reading outside the list is an error naming it (CPU paths only: a GPU
    path does not hold config lists).
    `%c = imeta.config_at @engram_lookup_table[%t] : i32`
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, I32:$index);
  let results = (outs I32:$result);
  let assemblyFormat = "$param `[` $index `]` attr-dict `:` type($result)";
}

def IMeta_ConfigLenOp : IMeta_FormulaOp<"config_len", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["isBucketInvariantRead"]> {
  let summary = "the length of a config list parameter";
  let description = [{ `%v = imeta.config_len @engram_lookup_table : i32` }];
  let arguments = (ins FlatSymbolRefAttr:$param);
  let results = (outs I32:$result);
  let assemblyFormat = "$param attr-dict `:` type($result)";
}

def IMeta_GetOp : IMeta_FormulaOp<"get", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFieldDependencies", "isBucketInvariantRead"]> {
  let summary = "another field's value at the current point";
  let description = [{
    Reads a flat field at the current sequence (a `seq` field), the current
    row (a `rows` field of the same count), or the batch (a `scalar`
    field), in the current ratio bucket. This is how a quantity is defined
    once and shared.
    `%s = imeta.get @query_start : i32` becomes `query_start[i]` (or a
    value computed once per sequence, after fusion).
  }];
  let arguments = (ins FlatSymbolRefAttr:$field);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat = "$field attr-dict `:` type($result)";
}

def IMeta_PrefixAtOp : IMeta_FormulaOp<"prefix_at", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFieldDependencies", "getFailureSubject"]> {
  let summary = "an entry of a prefix sum, read with a stated convention";
  let description = [{
    The stated convention must be the sum's own. For an exclusive sum,
    entry i is the start of sequence i (0 <= i <= N); for an inclusive one,
    the end (0 <= i < N). A sum of a field with columns has one sum per
    column: its entry is read at `[i, column]`.

    ```mlir
    %start = imeta.prefix_at @cu_seqlens_q[%i] : !imeta.prefix<exclusive> -> i32
    %k = imeta.prefix_at @cu_kept_by_rank[%i, %rank] : !imeta.prefix<exclusive> -> i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$prefix, I32:$index,
                       Optional<I32>:$column,
                       TypeAttrOf<IMeta_PrefixType>:$type);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat = [{
    $prefix `[` $index (`,` $column^)? `]` attr-dict `:` $type `->`
    type($result)
  }];
}

def IMeta_PrefixTotalOp : IMeta_FormulaOp<"prefix_total", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFieldDependencies", "getFailureSubject"]> {
  let summary = "the total of a prefix sum (its last entry)";
  let description = [{
    The total of a sum of a field with columns is per column,
    `[column]`.

    ```mlir
    %t = imeta.prefix_total @cu_compressed_seqlens_k : i32
    %k = imeta.prefix_total @cu_kept_by_rank[%rank] : i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$prefix, Optional<I32>:$column);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat = "$prefix (`[` $column^ `]`)? attr-dict `:` type($result)";
}

def IMeta_RatioMinOp : IMeta_FormulaOp<"ratio_min", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFailureSubject"]> {
  let summary = "the smallest ratio of a set (an error if it is empty)";
  let description = [{ `%r0 = imeta.ratio_min @ca_ratios : i32` }];
  let arguments = (ins FlatSymbolRefAttr:$set);
  let results = (outs I32:$result);
  let assemblyFormat = "$set attr-dict `:` type($result)";
}

def IMeta_RatioCountOp : IMeta_FormulaOp<"ratio_count", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the number of ratios in a set";
  let description = [{ `%c = imeta.ratio_count @ca_ratios : i32` }];
  let arguments = (ins FlatSymbolRefAttr:$set);
  let results = (outs I32:$result);
  let assemblyFormat = "$set attr-dict `:` type($result)";
}

def IMeta_ReduceOp : IMeta_FormulaOp<"reduce", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFieldDependencies", "getFailureSubject"]> {
  let summary = "the sum, maximum or minimum of a field's values";
  let description = [{
    Reduces a `seq` field's values over every sequence of the batch (in the
    current bucket where the field is bucketed): `sum`, `max` or `min`; 0
    for a batch without sequences. A field with several values a point
    (K yielded values, or `cols(@w)` without `live`) reduces over all of
    them: a `scalar` one over its columns (the largest of a per-rank
    count), a `seq` one over every sequence's columns. Valid in `scalar`
    fields and rules: a value computed once per batch, read elsewhere with
    `imeta.get` (vLLM's `max_query_len`, `max_seq_len`). A sum is checked
    to fit its type as every result is.

    With a column (`imeta.reduce max @f[%c]`, compact `max_of(f, c)`), a
    `seq` field of several values a point reduces that column alone over
    the sequences: one maximum (minimum, sum) per column, as a prefix sum
    of such a field is one sum per column (`total(cu, c)`). A column
    outside the field's is an error naming it.

    A `rows` field of one value a row and no columns reduces over its rows:
    in a `seq` field over the current sequence's (0 where it has none), in
    a `scalar` field or rule over the whole batch's (0 where there are
    none). `imeta-expand-formulas` writes it as an `imeta.reduce_rows` (in
    a scalar, in a hidden `seq` field `X_KIND_over_rows` reduced in turn),
    so every backend computes it on the host; a sum is checked to fit per
    sequence and for the batch. The field may not read its global row
    (`imeta.row`).

    ```mlir
    imeta.field @max_query_len scalar {
      %m = imeta.reduce max @q : i32
      imeta.yield %m : i32
    }
    imeta.field @longest_per_rank scalar cols(@cp_size) {
      %c = imeta.col_index : i32
      %m = imeta.reduce max @kept_by_rank[%c] : i32
      imeta.yield %m : i32
    }
    ```
  }];
  let arguments = (ins IMeta_Reduction:$kind, FlatSymbolRefAttr:$field,
                       Optional<I32>:$column);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat =
      "$kind $field (`[` $column^ `]`)? attr-dict `:` type($result)";
}

def IMeta_ReduceRowsOp : IMeta_FormulaOp<"reduce_rows", [SingleBlock]> {
  let summary = "the sum, maximum or minimum of a formula over `count` rows";
  let description = [{
    Runs its body at rows 0 .. count - 1 of the current sequence (the
    block's argument) and reduces what it yields: `sum`, `max` or `min`,
    0 where `count` is not positive. Valid in a `seq` field (on the host,
    O(rows) per sequence). What `imeta.reduce` of a `rows` field becomes:
    `imeta-expand-formulas` writes `count` as the field's row count and the
    body as the field's formula at the row (`imeta.gather`).

    ```mlir
    %n = imeta.get @q : i32
    %m = imeta.reduce_rows max %n : i32 {
    ^bb0(%r: i32):
      %v = imeta.gather @positions[%r] : i32
      imeta.yield %v : i32
    }
    ```
  }];
  let arguments = (ins IMeta_Reduction:$kind, I32:$count);
  let results = (outs IMeta_Int:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$kind $count attr-dict `:` type($result) $body";
  let hasVerifier = 1;
}

def IMeta_GatherOp : IMeta_FormulaOp<"gather", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>],
    ["getFieldDependencies"]> {
  let summary = "a rows field at another row of the current sequence";
  let description = [{
    `gather(X, index)` of SPEC-variants.md §2.2 for one row: the value of
    rows field `X` at row `index` of the current sequence (0 <= index <
    X's row count for it), or the pad value (0, false) where `index` is
    negative. A row past the sequence's rows is an error naming `X`. A
    mirror's positions, masks and ks/ke are its source layout's fields
    gathered through the mirror row; a `cols` field gathers the same
    column of a `cols` field of the same width.

    Front end only, as a compact formula is: `imeta-expand-formulas`
    replaces it by `X`'s formula at that row (its row index bound to
    `index`, each rows field it reads gathered likewise) under an
    `imeta.check_index`, so the passes and every backend see ordinary
    ops. `X` may not read its global row (`imeta.row`).

    ```mlir
    %v = imeta.gather @positions[%u] : i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$field, I32:$index);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat = "$field `[` $index `]` attr-dict `:` type($result)";
}

def IMeta_CheckIndexOp : IMeta_FormulaOp<"check_index", [
    AllTypesMatch<["index", "length", "result"]>],
    ["getFailureSubject"]> {
  let summary = "an index, checked to lie in [0, length)";
  let description = [{
    The index itself where `0 <= index < length`; otherwise the formula
    fails with "index I out of range of WHAT (length L)", WHAT naming what
    the index reads (`imeta.gather` states "the rows of 'X'").
    `%j = imeta.check_index %u, %q, "the rows of 'positions'" : i32`
  }];
  let arguments = (ins IMeta_Int:$index, IMeta_Int:$length, StrAttr:$what);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat =
      "$index `,` $length `,` $what attr-dict `:` type($result)";
}

def IMeta_ClampOp : IMeta_FormulaOp<"clamp",
    [AllTypesMatch<["value", "lo", "hi", "result"]>]> {
  let summary = "a value held within [lo, hi]";
  let description = [{
    `min(max(value, lo), hi)`: `lo` where the value is below it, `hi` where
    it is above (and `hi` where `lo > hi`). A window's start or a ring's
    position bounded on both sides, in one op.
    `%s = imeta.clamp %x, %lo, %hi : i32`
  }];
  let arguments = (ins IMeta_Int:$value, IMeta_Int:$lo, IMeta_Int:$hi);
  let results = (outs IMeta_Int:$result);
  let assemblyFormat = "$value `,` $lo `,` $hi attr-dict `:` type($result)";
}

#endif // IMETA_OPS_TD
