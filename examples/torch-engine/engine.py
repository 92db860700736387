#!/usr/bin/env python3
"""A PyTorch engine's decode loop on imeta's generated binding.

The scheduler below runs sequences that grow a token a step, join and
finish; each step it hands the decode_zos path of specs/deepinfer_v4.mlir
its values as host tensors, and the binding (imeta-gen --torch) fills the
engine's own out tensors: on the CPU, or on CUDA through one graph captured
once (the step's copy and kernel) and replayed every step. Every step's
fields are compared with the reference evaluator's (imeta-run), and a batch
that breaks a rule must raise the evaluator's message.

  engine.py --gen DIR --imeta-run PATH [--device cpu|cuda] [--steps N]
  engine.py --gen DIR --expected DIR [--device cuda]   (replay recorded)
  engine.py ... --record DIR    (also write each step's batch and fields)

DIR holds `imeta-gen specs/deepinfer_v4.mlir --paths decode_zos --torch
-o DIR`. On a machine without imeta-run (the GPU box), --expected reads the
fields a run with --record wrote.
"""

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import torch
import torch.utils.cpp_extension as cpp_extension

CONFIG = {"block_size": 128, "window_size": 128, "swa_block_size": 160,
          "max_model_len": 131072, "max_num_blocks": 1024,
          "force_load_balance": 0}
LISTS = {"dense_ratios": [1], "sparse_ratios": [4]}
# decode_zos's outputs of bool values; the others are int32.
BOOL_OUTPUTS = ("gate_force_random", "valid_token_mask")
SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                    "specs", "deepinfer_v4.mlir")


def out_tensors(shapes, device, fill=None):
    """The engine's out tensors for `shapes` (each output's [buckets, rows,
    width], as shape() gives them): int32, or bool where the field is; left
    uninitialized, or with `fill` (False for the bool ones)."""
    outs = {}
    for n, (b, r, w) in shapes.items():
        dtype = torch.bool if n in BOOL_OUTPUTS else torch.int32
        shape = (b, max(r, 1), w)
        outs[n] = (torch.empty(shape, dtype=dtype, device=device)
                   if fill is None else
                   torch.full(shape, fill if dtype == torch.int32 else False,
                              dtype=dtype, device=device))
    return outs


def build(gen_dir, device, build_dir, torchscript=False, path="DecodeZos"):
    """Builds the binding with torch's extension machinery and loads it:
    class `path` as the Python module's (pybind11, cheaper to call), or as
    TorchScript's torch.classes (the same object and methods)."""
    sources = [os.path.join(gen_dir, "deepinfer_v4_torch.cpp"),
               os.path.join(gen_dir, "deepinfer_v4.cpp")]
    flags = ["-O2", "-DIMETA_TORCH_PYTHON"]
    kwargs = {}
    if device == "cuda":
        sources.append(os.path.join(gen_dir, "deepinfer_v4.cu"))
        flags.append("-DIMETA_TORCH_CUDA")
        kwargs["extra_cuda_cflags"] = ["-O3"]  # arch: the visible device's
        kwargs["with_cuda"] = True
    os.makedirs(build_dir, exist_ok=True)
    module = cpp_extension.load(
        name="imeta_deepinfer_v4_" + device, sources=sources,
        extra_cflags=flags, extra_include_paths=[gen_dir],
        build_directory=build_dir, **kwargs)
    if torchscript:
        # A CUDA build registers its own library (both load in a process).
        library = "imeta_deepinfer_v4" + ("_cuda" if device == "cuda" else "")
        return getattr(getattr(torch.classes, library), path)
    return getattr(module, path)


class Scheduler:
    """Sequences in slots: each step every one gains a token (and a block
    where it crosses one), some finish and new ones join."""

    def __init__(self, max_seqs, hist, seed):
        self.rng = random.Random(seed)
        self.max_seqs, self.hist = max_seqs, hist
        self.bs = CONFIG["block_size"]
        self.rows = 2 * max_seqs
        self.free_rows = list(range(self.rows))
        self.free_blocks = list(range(self.rows * CONFIG["max_num_blocks"]))
        self.rng.shuffle(self.free_blocks)
        self.seqs = []  # dicts: k, row, state, blocks, token
        # The engine's block table: host rows, device rows, lengths, and
        # per row the first column changed since the device last got it.
        self.table = torch.zeros(self.rows, CONFIG["max_num_blocks"],
                                 dtype=torch.int32)
        self.lengths = torch.zeros(self.rows, dtype=torch.int32)
        self.dirty = torch.full((self.rows,), 2**31 - 1, dtype=torch.int32)

    def _grow(self, s):
        n, need = len(s["blocks"]), -(-s["k"] // self.bs)
        if need == n:
            return
        new = [self.free_blocks.pop() for _ in range(need - n)]
        s["blocks"] += new
        self.table[s["row"], n:need] = torch.tensor(new, dtype=torch.int32)
        self.dirty[s["row"]] = min(int(self.dirty[s["row"]]), n)
        self.lengths[s["row"]] = need

    def join(self):
        k = self.rng.randint(1, min(self.hist, CONFIG["max_model_len"]))
        s = {"k": k, "row": self.free_rows.pop(), "blocks": [],
             "state": self.rng.randint(0, 4 * self.max_seqs),
             "token": self.rng.randint(0, 100000)}
        self.dirty[s["row"]] = 0
        self.seqs.append(s)
        self._grow(s)

    def step(self, finish=0.01):
        for s in list(self.seqs):
            if (self.rng.random() < finish
                    or s["k"] == CONFIG["max_model_len"]):
                self.seqs.remove(s)
                self.free_blocks.extend(s["blocks"])
                self.free_rows.append(s["row"])
                self.lengths[s["row"]] = 0
        for s in self.seqs:
            s["k"] += 1
            s["token"] = self.rng.randint(0, 100000)
            self._grow(s)
        while len(self.seqs) < self.max_seqs:
            self.join()

    def inputs(self):
        """The step's values as host tensors (resident block table)."""
        col = lambda key: torch.tensor([s[key] for s in self.seqs],
                                       dtype=torch.int32)
        n = len(self.seqs)
        return {"seqlen_q": torch.ones(n, dtype=torch.int32),
                "seqlen_k": col("k"), "state_id": col("state"),
                "block_table_row": col("row"),
                "token_ids": col("token"),
                "token_ids_offsets": torch.arange(n + 1, dtype=torch.int64),
                "draft_tokens": torch.zeros(0, dtype=torch.int32),
                "draft_tokens_offsets": torch.zeros(n + 1, dtype=torch.int64)}

    def batch_json(self):
        """The same step as imeta-run's batch file (SPEC.md §6)."""
        config = dict(CONFIG, force_load_balance=False, **LISTS)
        return {"config": config, "sequences": [
            {"seqlen_q": 1, "seqlen_k": s["k"], "state_id": s["state"],
             "block_table": s["blocks"], "token_ids": [s["token"]],
             "draft_tokens": []} for s in self.seqs]}


def small_batch(cls, seed):
    """Four sequences of a decode step on the CPU with class `cls`: the
    object (its block table bound), the scheduler, the step's inputs and
    output tensors for them (filled with -7, not yet bound)."""
    sched = Scheduler(4, 300, seed=seed)
    for _ in range(4):
        sched.join()
    meta = cls(CONFIG, LISTS, "cpu", 4, 0)
    meta.bind_table("block_table", sched.table, sched.lengths, 1 << 30,
                    None, None)
    inputs = sched.inputs()
    return meta, sched, inputs, out_tensors(meta.shape(inputs), "cpu", fill=-7)


def evaluate(imeta_run, batch, path="decode_zos"):
    """The reference evaluator's field file, or (None, its message)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(batch, f)
    try:
        r = subprocess.run([imeta_run, SPEC, "--path", path, "--batch",
                            f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        prefix = "imeta-run: error: "
        return None, r.stderr.strip().removeprefix(prefix)
    return json.loads(r.stdout), None


def fields(names, outs, rows, ratios):
    """The live rows of every out tensor, as the evaluator names them."""
    got = {}
    for k, name in enumerate(names):
        t = outs[name].cpu()
        for b in range(t.shape[0]):
            key = name if ratios[k, 0] < 0 else f"{name}.{ratios[k, b]}"
            live = t[b, :rows[k, b]]
            got[key] = live.reshape(-1).tolist() if live.shape[-1] == 1 \
                else live.tolist()
    return got


def compare(step, got, want):
    for key, value in want.items():
        g = got.get(key)
        if g is None:
            sys.exit(f"step {step}: no field '{key}' from the binding")
        # block_tables: columns past a sequence's blocks are unspecified.
        if key == "block_tables":
            g = [[v if w != -1 else -1 for v, w in zip(gr, wr)]
                 for gr, wr in zip(g, value)]
        if g != value:
            sys.exit(f"step {step}: '{key}' differs from the evaluator:\n"
                     f"  binding   {str(g)[:300]}\n  evaluator {str(value)[:300]}")
    extra = set(got) - set(want)
    if extra:
        sys.exit(f"step {step}: fields the evaluator lacks: {sorted(extra)}")


def bad_batch_check(cls, args, imeta_run, expected_dir):
    """A batch that breaks R3 (q > k) raises the evaluator's message and
    leaves the out tensors untouched."""
    meta = cls(CONFIG, LISTS, args.device, 4, 1 << 16)
    sched = Scheduler(4, 300, seed=7)
    for _ in range(3):
        sched.join()
    meta.bind_table("block_table", sched.table.to(args.device),
                    sched.lengths, len(sched.free_blocks) + 10**6, None, None)
    inputs = sched.inputs()
    inputs["seqlen_q"][1] = sched.seqs[1]["k"] + 1
    batch = sched.batch_json()
    batch["sequences"][1]["seqlen_q"] = sched.seqs[1]["k"] + 1
    if imeta_run:
        want = evaluate(imeta_run, batch)[1]
        if expected_dir:
            with open(os.path.join(expected_dir, "bad.txt"), "w") as f:
                f.write(want)
    else:
        with open(os.path.join(expected_dir, "bad.txt")) as f:
            want = f.read()
    outs = out_tensors(meta.shape(sched.inputs()), args.device, fill=-7)
    before = {n: t.clone() for n, t in outs.items()}
    meta.bind_outputs(outs)
    try:
        meta.plan(inputs)
    except ValueError as e:
        got = str(e).splitlines()[0]
        if got != want:
            sys.exit(f"bad batch: the binding says\n  {got}\nthe evaluator\n  {want}")
    else:
        sys.exit("bad batch: plan() raised nothing")
    for n, t in outs.items():
        if not torch.equal(t, before[n]):
            sys.exit(f"bad batch: out tensor '{n}' was written")
    print(f"bad batch: ValueError with the evaluator's message: {want}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--max-seqs", type=int, default=16)
    ap.add_argument("--hist", type=int, default=2000)
    ap.add_argument("--imeta-run")
    ap.add_argument("--expected", help="read the evaluator's fields here")
    ap.add_argument("--record", help="write each step's batch and fields")
    ap.add_argument("--no-check", action="store_true",
                    help="time only (no evaluator)")
    ap.add_argument("--build-dir", default=None)
    ap.add_argument("--torchscript", action="store_true",
                    help="call the TorchScript class (torch.classes)")
    args = ap.parse_args()
    if not (args.imeta_run or args.expected or args.no_check):
        ap.error("give --imeta-run, --expected or --no-check")
    if args.device == "cuda" and not torch.cuda.is_available():
        ap.error("--device cuda: torch sees no CUDA device")

    build_dir = args.build_dir or os.path.join(args.gen, "torch-" + args.device)
    t0 = time.time()
    cls = build(args.gen, args.device, build_dir, args.torchscript)
    print(f"binding built and loaded in {time.time() - t0:.1f} s")
    record = args.record or (args.expected if not args.imeta_run else None)
    if args.record:
        os.makedirs(args.record, exist_ok=True)
    if not args.no_check:
        bad_batch_check(cls, args, args.imeta_run, args.record or args.expected)

    sched = Scheduler(args.max_seqs, args.hist, seed=args.max_seqs)
    for _ in range(args.max_seqs):
        sched.join()
    # The graph copies the whole staging: the largest step, with room for
    # the block ids of the sequences that join.
    staging = (1 << 16) + 96 * args.max_seqs
    meta = cls(CONFIG, LISTS, args.device, args.max_seqs, staging)
    cuda = args.device == "cuda"
    table = sched.table.cuda() if cuda else sched.table
    # CUDA: the device rows start equal to the host's; later changes reach
    # them through the marks, inside the step's one copy.
    meta.bind_table("block_table", table, sched.lengths, len(sched.free_blocks)
                    + 10**6, sched.table if cuda else None,
                    sched.dirty if cuda else None)
    sched.dirty.fill_(2**31 - 1)

    # The out tensors, once, at the largest batch (never reallocated).
    widest = Scheduler(args.max_seqs, 1, seed=0)
    for _ in range(args.max_seqs):
        widest.join()
    probe = cls(CONFIG, LISTS, "cpu", args.max_seqs, 0)
    probe.bind_table("block_table", widest.table, widest.lengths, 1 << 30,
                     None, None)
    shapes = probe.shape(widest.inputs())
    names = meta.outputs()
    outs = out_tensors(shapes, args.device)

    meta.bind_outputs(outs)
    graph = None
    times, plans = [], []
    for step in range(args.steps):
        sched.step()
        inputs = sched.inputs()
        t = time.perf_counter()
        rows = meta.plan(inputs)
        planned = time.perf_counter()
        if cuda:
            if graph is None:
                meta.run()  # warm-up, eager
                torch.cuda.synchronize()
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    meta.run()
                torch.cuda.synchronize()
                t = time.perf_counter()
                rows = meta.plan(inputs)
                planned = time.perf_counter()
            graph.replay()
            torch.cuda.current_stream().synchronize()
        else:
            meta.run()
        times.append(time.perf_counter() - t)
        plans.append(planned - t)
        meta.check()
        if args.no_check:
            continue
        got = fields(names, outs, rows, meta.ratios())
        batch = sched.batch_json()
        if args.imeta_run:
            want, err = evaluate(args.imeta_run, batch)
            if err:
                sys.exit(f"step {step}: the evaluator refused the batch: {err}")
            if args.record:
                with gzip.open(os.path.join(args.record,
                                            f"step{step}.json.gz"), "wt") as f:
                    json.dump(want, f)
        else:
            with gzip.open(os.path.join(args.expected,
                                        f"step{step}.json.gz"), "rt") as f:
                want = json.load(f)
        compare(step, got, want)
    med = sorted(times)[len(times) // 2] * 1e6
    med_plan = sorted(plans)[len(plans) // 2] * 1e6
    print(f"{args.steps} steps on {args.device}"
          f"{' (CUDA graph)' if cuda else ''}, {len(sched.seqs)} sequences at"
          f" the end (max {args.max_seqs}): "
          f"{'every step equal to the evaluator' if not args.no_check else 'unchecked'}")
    print(f"step (plan + {'replay + sync' if cuda else 'fill'}): median "
          f"{med:.1f} us (plan {med_plan:.1f} us), staging "
          f"{meta.staging_used()} B")


if __name__ == "__main__":
    main()
