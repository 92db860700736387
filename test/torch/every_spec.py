#!/usr/bin/env python3
"""The PyTorch binding of every spec with an example batch (ctest torch-engine).

For each spec in specs/ and specs/examples: `imeta-gen --torch`, the
binding built on the CPU with torch's extension machinery, then every CPU
path's class run on an example batch (SPEC.json beside it; the shipped
spec: specs/examples' prompt and decode batches and test/Eval's variants
one; its request-state path decode_async has test/torch/async_state.py): its out tensors must hold
the reference evaluator's fields (imeta-run), and where the evaluator
refuses the batch (a prompt path on a decode batch) plan() must raise its
words.

  every_spec.py --imeta-gen PATH --imeta-run PATH --build-dir DIR
                [SPEC[:BATCH[:PATH,...]]...]
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

import torch
import torch.utils.cpp_extension as cpp_extension

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = os.path.join(HERE, "..", "..", "specs", "examples")


def pascal(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def spec_paths(spec_file):
    """The spec's symbol and its paths, as written (a GPU path's class runs
    its CPU routine on the CPU)."""
    text = open(spec_file).read()
    spec = re.search(r"imeta\.spec\s+@(\w+)", text).group(1)
    return spec, re.findall(r"imeta\.path\s+@(\w+)", text)


def inputs_of(batch):
    """The binding's config, config lists and input tensors of a batch file
    (SPEC.md §6): a list as its values and NAME_offsets (int64); its
    request state too."""
    config, lists = {}, {}
    for k, v in batch["config"].items():
        if isinstance(v, list):
            lists[k] = [int(x) for x in v]
        else:
            config[k] = int(v)
    seqs = batch["sequences"]
    keys = sorted({k for s in seqs for k in s})
    inputs = {}
    for k in keys:
        values = [s.get(k) for s in seqs]
        if any(isinstance(v, list) for v in values):
            flat, offsets = [], [0]
            for v in values:
                flat += v or []
                offsets.append(len(flat))
            inputs[k] = torch.tensor(flat, dtype=torch.int32)
            inputs[k + "_offsets"] = torch.tensor(offsets, dtype=torch.int64)
        elif any(isinstance(v, bool) for v in values):
            inputs[k] = torch.tensor([bool(v) for v in values],
                                     dtype=torch.bool)
        else:
            inputs[k] = torch.tensor([int(v or 0) for v in values],
                                     dtype=torch.int32)
    # Request state (SPEC-async.md), a tensor a state input named as its
    # key: a list's rows as values and NAME_offsets.
    for k, rows in batch.get("state", {}).items():
        if rows and isinstance(rows[0], list):
            inputs[k] = torch.tensor([v for r in rows for v in r],
                                     dtype=torch.int32)
            inputs[k + "_offsets"] = torch.tensor(
                [sum(len(r) for r in rows[:n]) for n in range(len(rows) + 1)],
                dtype=torch.int64)
        else:
            inputs[k] = torch.tensor([int(v) for v in rows],
                                     dtype=torch.int32)
    return config, lists, inputs


def fields(meta, outs, rows):
    """The live rows of every out tensor, as the evaluator names them (an
    optional output absent from the step, present() false, has no key)."""
    ratios, present = meta.ratios(), meta.present()
    got = {}
    for k, name in enumerate(meta.outputs()):
        t = outs[name]
        for b in range(t.shape[0]):
            if not present[k][b]:
                continue
            key = name if ratios[k][0] < 0 else f"{name}.{ratios[k][b]}"
            live = t[b, :rows[k, b]]
            got[key] = live.reshape(-1).tolist() if live.shape[-1] == 1 \
                else live.tolist()
    return got


def bind(meta, shapes):
    """Out tensors of `shapes` ([buckets, rows, width] by output), bound."""
    bools = set(meta.bool_outputs())
    outs = {n: torch.zeros((b, max(rows, 1), w),
                           dtype=torch.bool if n in bools else torch.int32)
            for n, (b, rows, w) in shapes.items()}
    meta.bind_outputs(outs)
    return outs


def run_spec(spec_file, batch_file, only, args):
    spec, paths = spec_paths(spec_file)
    if only:
        paths = [p for p in paths if p in only]
    if not os.path.exists(batch_file):
        sys.exit(f"{spec_file}: no example batch {batch_file}")
    gen = os.path.join(args.build_dir, spec, "gen")
    subprocess.run([args.imeta_gen, spec_file, "--torch", "-o", gen],
                   check=True)
    base = [f for f in os.listdir(gen) if f.endswith("_torch.cpp")][0]
    base = base[:-len("_torch.cpp")]
    ext = os.path.join(args.build_dir, spec, "ext")
    os.makedirs(ext, exist_ok=True)
    module = cpp_extension.load(
        name=f"imeta_{spec}_every_spec",
        sources=[os.path.join(gen, base + "_torch.cpp"),
                 os.path.join(gen, base + ".cpp")],
        extra_cflags=["-O1", "-DIMETA_TORCH_PYTHON"],
        extra_include_paths=[gen], build_directory=ext)
    batch = json.load(open(batch_file))
    config, lists, inputs = inputs_of(batch)
    for path in paths:
        r = subprocess.run([args.imeta_run, spec_file, "--path", path,
                            "--batch", batch_file],
                           capture_output=True, text=True)
        cls = getattr(module, pascal(path))
        make = lambda: cls(config, lists, "cpu", len(batch["sequences"]), 0)
        if r.returncode != 0:
            # A batch the evaluator refuses: the same words, from the
            # constructor (the config), shape() or plan().
            want = r.stderr.strip().removeprefix("imeta-run: error: ")
            try:
                meta = make()
                bind(meta, meta.shape(inputs))
                meta.plan(inputs)
            except ValueError as e:
                got = str(e).splitlines()[0]
                if got != want:
                    sys.exit(f"{spec} {path}: binding '{got}', "
                             f"evaluator '{want}'")
                print(f"{spec} {path}: refused in the evaluator's words")
                continue
            sys.exit(f"{spec} {path}: the binding accepts what the "
                     f"evaluator refuses ({want})")
        meta = make()
        outs = bind(meta, meta.shape(inputs))
        rows = meta.plan(inputs)
        got = fields(meta, outs, rows)
        want = json.loads(r.stdout)
        # Columns a field leaves unspecified print as -1.
        for key, value in want.items():
            g = got.get(key)
            # A scalar output is one value in a one-row tensor.
            if not isinstance(value, list) and isinstance(g, list) \
                    and len(g) == 1:
                g = g[0]
            # A scalar of several values (cols) is that row's values.
            if isinstance(value, list) and (not value or
                                            not isinstance(value[0], list)) \
                    and isinstance(g, list) and len(g) == 1 \
                    and isinstance(g[0], list):
                g = g[0]
            if isinstance(value, list) and value and \
                    isinstance(value[0], list) and g is not None:
                g = [[x if y != -1 else -1 for x, y in zip(gr, wr)]
                     for gr, wr in zip(g, value)]
            if g != value:
                sys.exit(f"{spec} {path}: '{key}': binding {str(g)[:200]}, "
                         f"evaluator {str(value)[:200]}")
        if set(got) != set(want):
            sys.exit(f"{spec} {path}: outputs {sorted(got)} vs the "
                     f"evaluator's {sorted(want)}")
        print(f"{spec} {path}: {len(want)} outputs equal the evaluator's")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--imeta-gen", required=True)
    ap.add_argument("--imeta-run", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("specs", nargs="*")
    args = ap.parse_args()
    v4 = os.path.join(SPECS, "..", "deepinfer_v4.mlir")
    runs = args.specs or (
        [f"{v4}:{os.path.join(SPECS, b)}"
         for b in ("prompt_small.json", "decode_small.json")] +
        [v4 + ":" + os.path.join(HERE, "..", "Eval", "Inputs",
                                 "variants_example.json")] +
        sorted(glob.glob(os.path.join(SPECS, "*.mlir"))))
    for run in runs:
        spec_file, _, rest = run.partition(":")
        batch_file, _, only = rest.partition(":")
        spec_file = os.path.abspath(spec_file)
        run_spec(spec_file, batch_file or spec_file[:-len(".mlir")] + ".json",
                 only.split(",") if only else [], args)


if __name__ == "__main__":
    main()
