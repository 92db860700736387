//===- Passes.td - imeta passes ----------------------------*- tablegen -*-===//

#ifndef IMETA_TRANSFORMS_PASSES_TD
#define IMETA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExpandFormulas : Pass<"imeta-expand-formulas", "::imeta::SpecOp"> {
  let summary = "Expand compact field formulas into ops";
  let description = [{
    A field written `= "FORMULA"` (dialect/CompactFormula.h) gets the body
    its formula denotes, in the ops every other pass and backend reads; the
    tools (imeta-run, imeta-gen) do this as they load a spec.

    Before:
    ```mlir
    imeta.field @pos rows(@q) = "query_start + j"
    ```
    After:
    ```mlir
    imeta.field @pos rows(@q) {
      %0 = imeta.get @query_start : i32
      %1 = imeta.row_index : i32
      %2 = arith.addi %0, %1 : i32
      imeta.yield %2 : i32
    }
    ```
  }];
}

def CheckFormulas : Pass<"imeta-check-formulas"> {
  let summary = "Report what imeta-expand-formulas would, changing nothing";
  let description = [{
    Expands the compact formulas of a copy of the spec and verifies the
    copy: a formula that does not parse, names nothing or builds ops that
    do not verify is an error at its column, as the tools report it. The
    spec itself is left as it is. It runs on any op and checks each spec
    in it (a spec at the top, as `--no-implicit-module` reads it, too).
    imeta-opt runs it before any pipeline, so a spec is checked whole
    without a flag.
  }];
}

def SplitResolves : Pass<"imeta-split-resolves", "::imeta::SpecOp"> {
  let summary = "Give each path that resolves inputs a first stage path";
  let description = [{
    A path with `imeta.resolve` runs, in generated CPU code, in two
    stages: the path `@P_resolve` (target cpu, added here) outputs the
    resolving fields (a list input's rows, and their counts as
    `NAME_count`) and checks the rules that read state; then @P runs on
    the inputs they give. Marks @P `imeta.resolved_by = @P_resolve` and
    the stage `imeta.resolve_stage = @P`; a spec already split is left as
    it is. The emitters run it first.

    Before:
    ```mlir
    imeta.path @decode_async target(gpu) extends @decode_varlen {
      imeta.require "R11" "num_drafts <= nextn" seq = "num_drafts <= nextn"
      imeta.resolve @seqlen_q = @async_q
    }
    ```
    After (besides @decode_async, now marked):
    ```mlir
    imeta.path @decode_async_resolve target(cpu)
        attributes {imeta.resolve_stage = @decode_async} {
      imeta.require "R11" "num_drafts <= nextn" seq { ... }
      imeta.output "seqlen_q" = @async_q
    }
    ```
  }];
}

def InlineResolves : Pass<"imeta-inline-resolves", "::imeta::SpecOp"> {
  let summary = "Make one resolving path read the batch as given";
  let description = [{
    `imeta.resolve @X = @F` says that in the path every read of input X is
    a read of field F. For the path named by `path`, this rewrites every
    formula the path reads so (a scalar's `get_input` as `get @F`, a
    list's `length` as its row count, `load @X[u]` as F's formula at row
    u, checked in the load's words), and makes the path stand alone: no
    base, no resolution, its outputs and rules its own, in the order the
    evaluator checks them (SPEC-async.md §4): the rules that read state,
    then one rule `bounds` for the resolved inputs' `min` (sequence by
    sequence, worded as a batch file's; hidden seq fields find a list's
    first element below it), then the rest. A list read by `count()` is
    refused. It rewrites shared fields in place and removes every other
    path: the emitters run it on a copy of the spec made for the path.

    Before:
    ```mlir
    imeta.path @decode_async target(gpu) extends @decode_varlen {
      imeta.resolve @seqlen_q = @async_q
    }
    ```
    After (every field the path reads that read `seqlen_q` now reads
    `async_q`):
    ```mlir
    imeta.path @decode_async target(gpu)
        attributes {imeta.inlined_resolves = [@seqlen_q]} {
      imeta.require "bounds" "the resolved inputs' minimums" seq {...}
      imeta.output ...
    }
    ```
  }];
  let options = [Option<"pathName", "path", "std::string", "",
                        "the path whose resolutions are inlined">];
}

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

def OrderHost : Pass<"imeta-order-host", "::imeta::SpecOp"> {
  let summary = "Record each path's host stage: rules and sizes, in order";
  let description = [{
    The host stage is the light first pass of generated code: it checks the
    rules and computes every scalar and per-sequence field and prefix sum,
    which includes the row count (hence the size) of every data-dependent
    field, so that the fill stage writes each output exactly once. Each rule
    comes right after the values it reads, in the order rules are written
    (a rule guards what follows it); the other values follow in dependency
    order. Rules are named by their index among the spec's rules followed by
    the path's.

    Before:
    ```mlir
    imeta.path @decode target(cpu) { ... }
    ```
    After:
    ```mlir
    imeta.path @decode target(cpu) attributes {imeta.host = [0, 1, 2, @q, @k, 3, ...]} { ... }
    ```
    A path that already has an order keeps it. The emitters follow a
    recorded order after checking that every value comes after what it
    reads.
  }];
}

def FuseRows : Pass<"imeta-fuse-rows", "::imeta::SpecOp"> {
  let summary = "Record the fusion of each path's rows fields";
  let description = [{
    All rows fields with the same row count are filled in one loop nest:
    for each sequence, for each of its rows, every field of the group in
    dependency order, so a value several fields read (pos, s, a block-table
    slot) is computed once per row and kept in a local. One group per row
    space: `[@count, @field, ...]`.

    Before:
    ```mlir
    imeta.path @decode target(cpu) { ... }
    ```
    After:
    ```mlir
    imeta.path @decode target(cpu) attributes {imeta.fill = [[@q, @positions, @decode_input_ids, ...]]} { ... }
    ```
    On the GPU each group is the body of one CTA per sequence, its threads
    striding over the rows. A path that already has a fusion keeps it; the
    emitters check a recorded one (each field after the fields it reads).
  }];
}

def StackBuckets : Pass<"imeta-stack-buckets", "::imeta::SpecOp"> {
  let summary = "Record the stacked buffer layout of every path output";
  let description = [{
    A field bucketed over a ratio set is one stacked buffer,
    `[n_ratios, rows, width]`, whose bucket b is the row view `NAME.n`
    (n the set's b-th ratio), at a bucket stride fixed when the buffer is
    made, so a graph captured on it replays for any smaller batch. Rows are
    `N`, `N+1`, `1` or `rows(@count)`; width a number or a config parameter.

    Before:
    ```mlir
    imeta.output "positions_c" = @decode_positions_c
    ```
    After:
    ```mlir
    imeta.output "positions_c" = @decode_positions_c {imeta.layout = "[ca_ratios][rows(q)][1] i32"}
    ```
    The emitters check a recorded layout against the field (a located error
    if it differs) and document each generated Buffer with it.
  }];
}

#endif // IMETA_TRANSFORMS_PASSES_TD
