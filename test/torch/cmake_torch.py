#!/usr/bin/env python3
"""The binding built by CMake (examples/cmake-torch: imeta_add_metadata_library
with TORCH into the engine's own module), loaded with torch.ops.load_library:
its class fills examples/cmake-engine's batch with imeta-run's fields, the
offsets given as int32.

  cmake_torch.py --module PATH --batch FILE --expect FILE
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import every_spec as S  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", required=True)
    ap.add_argument("--batch", required=True)
    ap.add_argument("--expect", required=True)
    args = ap.parse_args()
    torch.ops.load_library(args.module)
    batch = json.load(open(args.batch))
    config, lists, inputs = S.inputs_of(batch)
    inputs = {k: v.int() if k.endswith("_offsets") else v
              for k, v in inputs.items()}
    meta = torch.classes.imeta_engine_meta.Step(config, lists, "cpu",
                                                len(batch["sequences"]), 0)
    outs = S.bind(meta, meta.shape(inputs))
    got = S.fields(meta, outs, meta.plan(inputs))
    want = json.load(open(args.expect))
    for key, value in want.items():
        g = got.get(key)
        if not isinstance(value, list) and isinstance(g, list) and len(g) == 1:
            g = g[0]
        if g != value:
            sys.exit(f"cmake-torch: '{key}' is {g}, imeta-run's {value}")
    # Its per-sequence inputs left out: the missing one is named (the list's
    # offsets count the sequences), not the offsets.
    try:
        meta.plan({k: v for k, v in inputs.items() if k not in ("q", "k")})
        sys.exit("cmake-torch: a step without 'q' and 'k' was accepted")
    except ValueError as e:
        message = str(e).splitlines()[0]
        if "'q' is null" not in message:
            sys.exit(f"cmake-torch: without 'q': {message}")
    print(f"cmake-torch: the CMake-built binding's {len(want)} fields equal "
          "imeta-run's; a missing input is named")


if __name__ == "__main__":
    main()
