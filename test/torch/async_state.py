#!/usr/bin/env python3
"""Request state through the PyTorch binding (ctest torch-engine, on the
CPU): decode_async of specs/deepinfer_v4.mlir (SPEC-async.md) reads each
sequence's inputs from state tensors at its slot. On random request state
and slotted batches (placeholders, slot -1 padding) every field equals the
evaluator's on the same batch file; a batch that breaks R11 raises the
evaluator's message, and state tensors that disagree on the number of
slots, or a state list without its offsets, are refused by name; each
refusal leaves the out tensors untouched.

  async_state.py --gen DIR --build-dir DIR --imeta-run PATH

DIR holds `imeta-gen specs/deepinfer_v4.mlir --paths decode_async --torch
-o DIR`.
"""
import argparse
import os
import random
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "torch-engine"))
import engine as E  # noqa: E402

NEXTN = 2
CONFIG = dict(E.CONFIG, nextn=NEXTN)
BOOL_OUTPUTS = E.BOOL_OUTPUTS


def random_state(rng, slots):
    """Request state of `slots` slots, each row long enough for its k."""
    state = {"num_computed": [], "last_token": [], "num_drafts": [],
             "draft_tokens": [], "state_id": [], "block_table": []}
    for _ in range(slots):
        s, d = rng.randint(0, 3000), rng.randint(0, NEXTN)
        blocks = -(-(s + 1 + d) // CONFIG["block_size"]) + rng.randint(0, 2)
        state["num_computed"].append(s)
        state["last_token"].append(rng.randint(0, 10**5))
        state["num_drafts"].append(d)
        state["draft_tokens"].append([rng.randint(0, 10**5)
                                      for _ in range(NEXTN)])
        state["state_id"].append(rng.randint(0, 64))
        state["block_table"].append([rng.randint(0, 10**4)
                                     for _ in range(blocks)])
    return state


def random_batch(rng, slots):
    """Distinct slots, some placeholders, trailing slot -1 padding."""
    n = rng.randint(1, slots)
    seqs = [{"slot": s, "is_placeholder": rng.random() < 0.15}
            for s in rng.sample(range(slots), n)]
    seqs += [{"slot": -1, "is_placeholder": True}
             for _ in range(rng.randint(0, 3))]
    return seqs


def tensors(state, seqs):
    """The binding's inputs: per sequence, then state by input name."""
    i32 = lambda v: torch.tensor(v, dtype=torch.int32)
    rows = lambda rs: (i32([v for r in rs for v in r]),
                       torch.tensor([0] + [sum(len(r) for r in rs[:k + 1])
                                           for k in range(len(rs))],
                                    dtype=torch.int64))
    drafts, drafts_off = rows(state["draft_tokens"])
    blocks, blocks_off = rows(state["block_table"])
    return {"slot": i32([s["slot"] for s in seqs]),
            "is_placeholder": torch.tensor([s["is_placeholder"] for s in seqs],
                                           dtype=torch.bool),
            "num_computed": i32(state["num_computed"]),
            "slot_last_token": i32(state["last_token"]),
            "num_drafts": i32(state["num_drafts"]),
            "slot_state_id": i32(state["state_id"]),
            "slot_draft_tokens": drafts,
            "slot_draft_tokens_offsets": drafts_off,
            "slot_block_table": blocks,
            "slot_block_table_offsets": blocks_off}


def as_tables(inputs, state):
    """`inputs` with each state list as a [slots, max_len] table (rows
    padded with -1, never read) and its NAME_lengths."""
    out = {k: v for k, v in inputs.items() if not k.endswith("_offsets")}
    for name, key in (("slot_draft_tokens", "draft_tokens"),
                      ("slot_block_table", "block_table")):
        rows = state[key]
        width = max(1, max(len(r) for r in rows))
        table = torch.full((len(rows), width), -1, dtype=torch.int32)
        for r, row in enumerate(rows):
            table[r, :len(row)] = torch.tensor(row, dtype=torch.int32)
        out[name] = table
        out[name + "_lengths"] = torch.tensor([len(r) for r in rows],
                                              dtype=torch.int32)
    return out


def batch_file(state, seqs):
    config = dict(CONFIG, force_load_balance=False, **E.LISTS)
    return {"config": config, "state": state, "sequences": seqs}


def refused(what, meta, outs, inputs, *fragments):
    """plan(inputs) raises ValueError with every fragment; outs untouched."""
    before = {n: t.clone() for n, t in outs.items()}
    try:
        meta.plan(inputs)
    except ValueError as e:
        message = str(e).splitlines()[0]
        for f in fragments:
            if f not in message:
                sys.exit(f"{what}: the message lacks '{f}': {message}")
    else:
        sys.exit(f"{what}: plan() raised nothing")
    for n, t in outs.items():
        if not torch.equal(t, before[n]):
            sys.exit(f"{what}: out tensor '{n}' was written")
    return message


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--imeta-run", required=True)
    ap.add_argument("--batches", type=int, default=40)
    args = ap.parse_args()
    cls = E.build(args.gen, "cpu", args.build_dir, path="DecodeAsync")
    rng = random.Random(32)
    slots = 12
    meta = cls(CONFIG, E.LISTS, "cpu", 16, 0)
    names = meta.outputs()

    # Out tensors at the widest batch: every slot, every draft, long rows.
    widest = random_state(random.Random(0), slots)
    widest["num_drafts"] = [NEXTN] * slots
    widest["num_computed"] = [3000] * slots
    widest["block_table"] = [[0] * 30 for _ in range(slots)]
    wide_seqs = [{"slot": s, "is_placeholder": False} for s in range(slots)]
    wide_seqs += [{"slot": -1, "is_placeholder": True}] * 3
    outs = E.out_tensors(meta.shape(tensors(widest, wide_seqs)), "cpu",
                         fill=-7)
    meta.bind_outputs(outs)

    for b in range(args.batches):
        state, seqs = random_state(rng, slots), random_batch(rng, slots)
        rows = meta.plan(tensors(state, seqs))
        want, error = E.evaluate(args.imeta_run,
                                 batch_file(state, seqs), "decode_async")
        if error:
            sys.exit(f"batch {b}: the evaluator refused it: {error}")
        E.compare(b, E.fields(names, outs, rows, meta.ratios()), want)
    print(f"decode_async through the binding: {args.batches} batches of "
          "random request state equal the evaluator's fields")

    # The state lists as tables ([slots, max_len] and NAME_lengths, as an
    # engine keeps its block table): the same fields as packed rows.
    for b in range(10):
        state, seqs = random_state(rng, slots), random_batch(rng, slots)
        packed = tensors(state, seqs)
        # Both from the same out tensors (a block-table row's columns past
        # its blocks are unspecified: equal only where both leave them).
        for n in outs:
            outs[n].fill_(False if outs[n].dtype == torch.bool else -9)
        want = E.fields(names, outs, meta.plan(packed), meta.ratios())
        for n in outs:
            outs[n].fill_(False if outs[n].dtype == torch.bool else -9)
        got = E.fields(names, outs, meta.plan(as_tables(packed, state)),
                       meta.ratios())
        if got != want:
            sys.exit(f"table batch {b}: fields differ from the packed "
                     "state's: " + ", ".join(n for n in want
                                             if got.get(n) != want[n]))
    tables = as_tables(tensors(state, seqs), state)
    refused("table without lengths", meta, outs,
            {k: v for k, v in tables.items()
             if k != "slot_block_table_lengths"},
            "state 'slot_block_table'", "needs 'slot_block_table_lengths'")
    refused("table with short lengths", meta, outs,
            dict(tables, slot_block_table_lengths=tables[
                "slot_block_table_lengths"][:-1]),
            "'slot_block_table_lengths' holds 11 lengths for 12 rows")
    refused("table and offsets", meta, outs,
            dict(tables, slot_block_table_offsets=torch.zeros(
                slots + 1, dtype=torch.int64)),
            "a table takes 'slot_block_table_lengths', not "
            "'slot_block_table_offsets'")
    print("decode_async state lists as tables: 10 batches equal to the "
          "packed rows' fields; a table without its lengths, with too few "
          "and with offsets besides refused by name")

    state, seqs = random_state(rng, slots), random_batch(rng, slots)
    meta.plan(tensors(state, seqs))
    # R11: num_drafts past nextn at the second sequence's slot.
    bad = [{"slot": 1, "is_placeholder": False},
           {"slot": 0, "is_placeholder": False}]
    broken = dict(state, num_drafts=list(state["num_drafts"]))
    broken["num_drafts"][0] = NEXTN + 1
    want = E.evaluate(args.imeta_run, batch_file(broken, bad),
                      "decode_async")[1]
    if not want:
        sys.exit("R11 batch: the evaluator accepted it")
    got = refused("R11 batch", meta, outs, tensors(broken, bad))
    if got != want:
        sys.exit(f"R11 batch: the binding says\n  {got}\nthe evaluator\n"
                 f"  {want}")
    inputs = tensors(state, seqs)
    refused("short state", meta, outs,
            dict(inputs, num_drafts=inputs["num_drafts"][:-1]),
            "state 'num_drafts'", f"{slots - 1} slots", f"has {slots}", "R11")
    refused("state list without offsets", meta, outs,
            {k: v for k, v in inputs.items()
             if k != "slot_block_table_offsets"},
            "state 'slot_block_table'", "needs 'slot_block_table_offsets'")
    # A block id whose slot (id * block_size) leaves i32 at the second
    # sequence: no bound on the state's elements, so the range proof holds
    # and the fast fill checks it; its checks run before any store (the
    # first sequence's rows were written first).
    two = [{"slot": 0, "is_placeholder": False},
           {"slot": 1, "is_placeholder": False}]
    huge = dict(state, block_table=[list(r) for r in state["block_table"]])
    huge["block_table"][1] = [2 ** 28] * len(huge["block_table"][1])
    want = E.evaluate(args.imeta_run, batch_file(huge, two), "decode_async")[1]
    got = refused("block id past i32", meta, outs, tensors(huge, two))
    if got != want:
        sys.exit(f"block id past i32: the binding says\n  {got}\nthe "
                 f"evaluator\n  {want}")
    refused("slot past the state", meta, outs,
            dict(inputs, slot=torch.full_like(inputs["slot"], slots)),
            "sequence 0", "outside [-1, 12)", "R11")
    print("decode_async refusals: the evaluator's R11 message, and its "
          "overflow of a block id's slot (the fast fill's checks before any "
          "store); state arrays of different slot counts and a state list "
          "without offsets named; out tensors untouched")


if __name__ == "__main__":
    main()
