#!/usr/bin/env python3
"""What each call of the PyTorch binding costs, alone: the same call 1000
times in a row after 50 (µs a call), at N sequences of the torch example's
decode stream (examples/torch-engine/engine.py).

  binding_calls.py --gen DIR [--device cuda] [--max-seqs N]

DIR: `imeta-gen specs/deepinfer_v4.mlir --paths decode_zos --torch -o DIR`.
"""
import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "torch-engine"))
import engine as E  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--max-seqs", type=int, default=64)
    args = ap.parse_args()
    cuda = args.device == "cuda"
    build_dir = os.path.join(args.gen, "torch-" + args.device)
    fast = E.build(args.gen, args.device, build_dir)
    script = E.build(args.gen, args.device, build_dir, torchscript=True)
    for label, cls in (("pybind11", fast), ("TorchScript", script)):
        print(f"{label} class, N = {args.max_seqs}, µs a call:")
        measure(cls, args)


def measure(cls, args):
    cuda = args.device == "cuda"
    s = E.Scheduler(args.max_seqs, 4000, args.max_seqs)
    for _ in range(args.max_seqs):
        s.join()
    m = cls(E.CONFIG, E.LISTS, args.device, args.max_seqs,
            (1 << 16) + 96 * args.max_seqs)
    m.bind_table("block_table", s.table.cuda() if cuda else s.table,
                 s.lengths, 1 << 30, s.table if cuda else None,
                 s.dirty if cuda else None)
    inputs = s.inputs()
    outs = E.out_tensors(m.shape(inputs), args.device)
    m.bind_outputs(outs)
    m.plan(inputs)
    calls = [("plan", lambda: m.plan(inputs)),
             ("shape", lambda: m.shape(inputs)),
             ("scheduler inputs (Python)", s.inputs)]
    if cuda:
        m.run()
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            m.run()
        stream = torch.cuda.current_stream()
        calls += [("graph replay + sync",
                   lambda: (graph.replay(), stream.synchronize())),
                  ("eager run + sync", lambda: (m.run(), stream.synchronize())),
                  ("sync alone", stream.synchronize),
                  ("check", m.check)]
    for name, call in calls:
        for _ in range(50):
            call()
        t = time.perf_counter()
        for _ in range(1000):
            call()
        print(f"  {name}: {(time.perf_counter() - t) * 1e3:.1f}")

if __name__ == "__main__":
    main()
