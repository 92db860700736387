#!/usr/bin/env python3
"""The binding's step operator under torch.compile(fullgraph=True) (ctest
torch-engine, on the CPU): torch.ops.<library>.decode_async_step (plan()
then run() of a path object found by its handle(), its out tensors
declared mutated, Tensor(a!)[]) called inside a compiled function with a
consumer of its outputs. The compiled step (backends aot_eager, which
functionalizes the mutation, and inductor) must trace without a graph
break, write the out tensors it is given, and equal the eager class's
plan() on every one of random request-state batches; a refused batch
raises the evaluator's message through the compiled function too; the
object's own bound outputs are plan()'s again after the compiled steps.

  compiled_step.py --gen DIR --build-dir DIR

DIR holds `imeta-gen specs/deepinfer_v4.mlir --paths decode_async --torch
-o DIR`.
"""
import argparse
import os
import random
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "examples", "torch-engine"))
import async_state as A  # noqa: E402
import engine as E  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--batches", type=int, default=12)
    args = ap.parse_args()
    cls = E.build(args.gen, "cpu", args.build_dir, path="DecodeAsync")
    step_op = torch.ops.imeta_deepinfer_v4.decode_async_step
    slots = 12
    rng = random.Random(35)
    meta = cls(A.CONFIG, E.LISTS, "cpu", 16, 0)   # the compiled step's
    ref = cls(A.CONFIG, E.LISTS, "cpu", 16, 0)    # the eager reference
    names = meta.outputs()
    widest = A.random_state(random.Random(0), slots)
    widest["num_drafts"] = [A.NEXTN] * slots
    widest["num_computed"] = [3000] * slots
    widest["block_table"] = [[0] * 30 for _ in range(slots)]
    wide = [{"slot": s, "is_placeholder": False} for s in range(slots)] + \
        [{"slot": -1, "is_placeholder": True}] * 3
    shapes = meta.shape(A.tensors(widest, wide))
    ref_outs = E.out_tensors(shapes, "cpu", fill=-7)
    ref.bind_outputs(ref_outs)
    input_names = list(A.tensors(widest, wide).keys())
    handle = meta.handle()
    # The object's own binding, which the operator's calls must leave as
    # it is (it writes the outs it is given, then restores the binding).
    own = E.out_tensors(shapes, "cpu", fill=-7)
    meta.bind_outputs(own)

    def step(inputs, outs):
        # The metadata step, then a consumer of two of its fields.
        step_op(handle, input_names, inputs, outs)
        positions = outs[names.index("positions")]
        return positions.sum() + outs[names.index("context_lens")].sum()

    for backend in ("aot_eager", "inductor"):
        torch._dynamo.reset()
        compiled = torch.compile(step, fullgraph=True, backend=backend)
        fresh = E.out_tensors(shapes, "cpu", fill=-7)
        outs = [fresh[n] for n in names]          # outputs() order
        for t in ref_outs.values():   # both start alike (rows past the
            t.fill_(False if t.dtype == torch.bool else -7)  # live ones)
        for b in range(args.batches):
            state, seqs = A.random_state(rng, slots), A.random_batch(rng, slots)
            given = A.tensors(state, seqs)
            inputs = [given[n] for n in input_names]
            got = compiled(inputs, outs)
            rows = ref.plan(given)
            bound = dict(zip(names, outs))
            if E.fields(names, bound, rows, ref.ratios()) != \
                    E.fields(names, ref_outs, rows, ref.ratios()):
                sys.exit(f"{backend}, batch {b}: the compiled step's fields "
                         "differ from plan()'s")
            want = ref_outs["positions"].sum() + \
                ref_outs["context_lens"].sum()
            # Both sums run over whole tensors: equal only where every
            # byte is (the rows past the live ones kept alike).
            if not torch.equal(got, want):
                sys.exit(f"{backend}, batch {b}: the consumer read "
                         f"{int(got)}, plan()'s outputs give {int(want)}")
        # R11 broken: the compiled step raises the evaluator's words.
        bad = [{"slot": 1, "is_placeholder": False},
               {"slot": 0, "is_placeholder": False}]
        broken = dict(state, num_drafts=list(state["num_drafts"]))
        broken["num_drafts"][0] = A.NEXTN + 1
        given = A.tensors(broken, bad)
        try:
            compiled([given[n] for n in input_names], outs)
        except Exception as e:  # noqa: BLE001 (torch wraps it per backend)
            if "sequence 1: R11: num_drafts <= nextn" not in str(e):
                sys.exit(f"{backend}: the refusal says: {e}")
        else:
            sys.exit(f"{backend}: a broken batch passed the compiled step")
        state, seqs = A.random_state(rng, slots), A.random_batch(rng, slots)
        given = A.tensors(state, seqs)
        for t in list(own.values()) + list(ref_outs.values()):
            t.fill_(False if t.dtype == torch.bool else -7)
        rows = meta.plan(given)
        if E.fields(names, own, rows, meta.ratios()) != \
                E.fields(names, ref_outs, ref.plan(given), ref.ratios()):
            sys.exit(f"{backend}: after the compiled steps, plan() no longer "
                     "writes the object's own out tensors")
        print(f"torch.compile(fullgraph=True, backend={backend}): the step "
              f"operator traced; {args.batches} batches equal to plan()'s "
              "fields, the consumer's sums equal, R11 raised in the "
              "evaluator's words")


if __name__ == "__main__":
    main()
