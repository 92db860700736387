#!/usr/bin/env python3
"""The decode_async metadata step through the PyTorch binding (issue 33,
point 2): what the binding adds to the C++ step.

Request state on the GPU as imeta-bench-async-step builds it (StepBench's
config, nextn 2, N slots all live, num_computed uniform in [1, hist], each
block-table row as long as its next k needs, random block ids; the tables
[slots, max_num_blocks] with their lengths, as vLLM keeps them), the batch
every slot in order. Timed per step, from the scheduler's slots in host
memory to the fields on the device: plan() (the binding: the slots into
pinned staging) + the replay of a torch.cuda.graph holding run() (the
copy and the generated kernel) + torch.cuda.synchronize(). µs medians of
500 steps after 50, at N = 64, 256, 1024, hist 128K and 4K; and the
torch floor (a graph of one tiny kernel, replayed and synchronized from
Python). Compare with
imeta-bench-async-step's 'imeta alone' column (the same step through the
C++ API: decode_async_device_pack + a graph of the copy and the kernel +
sync), run in the same device call (bench/torch/async-step-run.sh).

  async_step.py --gen DIR [--build-dir DIR] [--torchscript]

DIR holds `imeta-gen specs/deepinfer_v4.mlir --paths decode_async --torch
-o DIR`.
"""
import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "torch-engine"))
import engine as E  # noqa: E402

NEXTN = 2
CONFIG = dict(E.CONFIG, nextn=NEXTN)
POOL = 1 << 16


def state(n, hist, gen):
    """N slots of request state on the GPU, all live."""
    mb, block = CONFIG["max_num_blocks"], CONFIG["block_size"]
    cap = min(hist, CONFIG["max_model_len"] - 1 - NEXTN)
    nc = torch.randint(1, cap + 1, (n,), generator=gen, dtype=torch.int32)
    need = ((nc + 1 + NEXTN + block - 1) // block).clamp(max=mb)
    st = {"num_computed": nc,
          "slot_last_token": torch.randint(0, 1000, (n,), generator=gen,
                                           dtype=torch.int32),
          "num_drafts": torch.randint(0, NEXTN + 1, (n,), generator=gen,
                                      dtype=torch.int32),
          "slot_draft_tokens": torch.randint(0, 1000, (n, NEXTN),
                                             generator=gen,
                                             dtype=torch.int32),
          "slot_draft_tokens_lengths": torch.full((n,), NEXTN,
                                                  dtype=torch.int32),
          "slot_state_id": torch.arange(n, dtype=torch.int32),
          "slot_block_table": torch.randint(0, POOL, (n, mb), generator=gen,
                                            dtype=torch.int32),
          "slot_block_table_lengths": need.int()}
    return {k: v.cuda() for k, v in st.items()}, st


def measure(cls, n, hist):
    gen = torch.Generator().manual_seed(n * 10 + (hist < 65536))
    dev_state, host_state = state(n, hist, gen)
    slot = torch.arange(n, dtype=torch.int32).pin_memory()
    ph = torch.zeros(n, dtype=torch.bool).pin_memory()
    meta = cls(CONFIG, E.LISTS, "cuda", n, (1 << 20) + 64 * n)
    widest = dict(host_state, slot=slot.clone(), is_placeholder=ph.clone())
    widest["num_drafts"] = torch.full((n,), NEXTN, dtype=torch.int32)
    outs = E.out_tensors(meta.shape(widest), "cuda")
    meta.bind_outputs(outs)
    inputs = dict(dev_state, slot=slot, is_placeholder=ph)
    meta.plan(inputs)
    meta.run()
    torch.cuda.synchronize()
    meta.check()
    # The graph copies the whole staging: size it to what a step packs.
    used = meta.staging_used()
    meta = cls(CONFIG, E.LISTS, "cuda", n, used + 4096)
    meta.bind_outputs(outs)
    meta.plan(inputs)
    meta.run()
    torch.cuda.synchronize()
    meta.check()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=side):
        meta.run()
    steps, host = [], []
    for it in range(550):
        t0 = time.perf_counter()
        meta.plan(inputs)
        t1 = time.perf_counter()
        graph.replay()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        if it % 50 == 0:
            meta.check()
        if it >= 50:
            steps.append((t2 - t0) * 1e6)
            host.append((t1 - t0) * 1e6)
    meta.check()
    med = lambda v: sorted(v)[len(v) // 2]
    return med(steps), med(host), used


def floor():
    """A torch.cuda.graph of one tiny kernel, replayed and synchronized
    from Python: what torch's replay and sync cost (the C++ bench's
    'floor' is the same through the CUDA API)."""
    x = torch.zeros(1, device="cuda")
    x.add_(1)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=side):
        x.add_(1)
    times = []
    for it in range(550):
        t0 = time.perf_counter()
        graph.replay()
        torch.cuda.synchronize()
        if it >= 50:
            times.append((time.perf_counter() - t0) * 1e6)
    return sorted(times)[len(times) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--build-dir", default=None)
    ap.add_argument("--torchscript", action="store_true")
    args = ap.parse_args()
    cls = E.build(args.gen, "cuda",
                  args.build_dir or os.path.join(args.gen, "torch-cuda"),
                  torchscript=args.torchscript, path="DecodeAsync")
    label = "TorchScript" if args.torchscript else "pybind11"
    print(f"decode_async through the binding ({label} class), "
          f"{torch.cuda.get_device_name()}: µs a step, medians of 500")
    print("| N | nextn | hist | torch floor | torch step | of it plan() | "
          "staging B |")
    print("|---|---|---|---|---|---|---|")
    for n in (64, 256, 1024):
        for hist in (131072, 4096):
            step, host, used = measure(cls, n, hist)
            print(f"| {n} | {NEXTN} | {hist // 1024}K | {floor():.1f} | "
                  f"{step:.1f} | {host:.2f} | {used} |", flush=True)


if __name__ == "__main__":
    main()
