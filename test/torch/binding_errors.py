#!/usr/bin/env python3
"""The PyTorch binding's refusals (ctest torch-engine, on the CPU): each
bad call raises ValueError naming the input, output, parameter or rule,
and leaves the outputs untouched; through both classes (the Python
module's and TorchScript's).

  binding_errors.py --gen DIR --build-dir DIR
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "torch-engine"))
import engine as E  # noqa: E402



def expect(what, call, *fragments):
    try:
        call()
    except ValueError as e:
        message = str(e).splitlines()[0]
        for f in fragments:
            if f not in message:
                sys.exit(f"{what}: the message lacks '{f}': {message}")
        return message
    sys.exit(f"{what}: no ValueError")


def check(cls, label):
    meta, sched, inputs, outs = E.small_batch(cls, seed=3)
    expect("plan before bind_outputs", lambda: meta.plan(inputs),
           "plan() before bind_outputs()")
    meta.bind_outputs(outs)
    before = {n: t.clone() for n, t in outs.items()}

    cases = [
        ("unknown input", dict(inputs, bogus=inputs["seqlen_k"]),
         ["no input named 'bogus'"]),
        ("int64 input", dict(inputs, seqlen_k=inputs["seqlen_k"].long()),
         ["input 'seqlen_k'", "torch.int32 tensor expected, got torch.int64"]),
        ("short input", dict(inputs, state_id=inputs["state_id"][:2]),
         ["'state_id': 2 values for 4 sequences"]),
        ("offsets missing", {k: v for k, v in inputs.items()
                             if k != "token_ids_offsets"},
         ["needs 'token_ids_offsets'"]),
        ("offsets short", dict(inputs, token_ids_offsets=inputs[
            "token_ids_offsets"][:-1]),
         ["input 'token_ids'", "'token_ids_offsets' holds 4 offsets; 5 "
          "expected"]),
        ("offsets past the values", dict(inputs, token_ids=inputs[
            "token_ids"][:-1]),
         ["input 'token_ids'", "'token_ids_offsets' ends at"]),
        ("rule R3", dict(inputs, seqlen_q=inputs["seqlen_k"] + 1),
         ["sequence 0", "R3"]),
        ("table row out of range",
         dict(inputs, block_table_row=torch.tensor([0, 1, 2, 99],
                                                   dtype=torch.int32)),
         ["sequence 3", "block_table"]),
    ]
    for what, bad, fragments in cases:
        expect(what, lambda: meta.plan(bad), *fragments)
        for n, t in outs.items():
            if not torch.equal(t, before[n]):
                sys.exit(f"{what}: output '{n}' was written")

    small = dict(outs, positions=torch.zeros(1, 2, 1, dtype=torch.int32))
    meta.bind_outputs(small)
    expect("output too small", lambda: meta.plan(inputs), "positions")
    expect("output dtype", lambda: meta.bind_outputs(
        dict(outs, positions=outs["positions"].long())),
        "output 'positions'", "torch.int32 tensor expected, got torch.int64")
    expect("output missing", lambda: meta.bind_outputs(
        {k: v for k, v in outs.items() if k != "klen"}),
        "output 'klen': no tensor given")
    expect("unknown config", lambda: cls(dict(E.CONFIG, bogus=1), E.LISTS,
                                         "cpu", 4, 0),
           "config: no scalar parameter 'bogus'")
    expect("config out of int32",
           lambda: cls(dict(E.CONFIG, block_size=2**40), E.LISTS, "cpu", 4, 0),
           "config: 'block_size' must be an int32 integer")
    expect("unknown table", lambda: meta.bind_table(
        "token_ids", sched.table, sched.lengths, 10, None, None),
        "no resident list input 'token_ids'")
    meta.bind_outputs(outs)
    meta.plan(inputs)  # and after all that, a good step still runs
    # int32 offsets (vLLM's, FlashInfer's indptr) are read as int64 ones.
    want = {n: t.clone() for n, t in outs.items()}
    for t in outs.values():
        t.fill_(-7)
    meta.plan(dict(inputs, token_ids_offsets=inputs["token_ids_offsets"].int()))
    for n, t in outs.items():
        if not torch.equal(t, want[n]):
            sys.exit(f"int32 offsets: output '{n}' differs from int64's")
    print(f"{label}: every refusal named its cause; outputs untouched")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--build-dir", required=True)
    args = ap.parse_args()
    fast = E.build(args.gen, "cpu", args.build_dir)
    check(fast, "pybind11 class")
    check(torch.classes.imeta_deepinfer_v4.DecodeZos, "TorchScript class")


if __name__ == "__main__":
    main()
