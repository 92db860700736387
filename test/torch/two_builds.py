#!/usr/bin/env python3
"""Two builds of one spec's binding in one process (ctest torch-engine, on
the CPU): the default build registers torch.classes.imeta_deepinfer_v4, a
second one built with -DIMETA_TORCH_LIBRARY=imeta_deepinfer_v4_second its
own library (one name registered twice aborts the process); both classes
then run the same step to the same fields.

  two_builds.py --gen DIR --build-dir DIR
"""
import argparse
import os
import sys

import torch
from torch.utils import cpp_extension

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "torch-engine"))
import engine as E  # noqa: E402


def step(cls):
    meta, _, inputs, outs = E.small_batch(cls, seed=5)
    meta.bind_outputs(outs)
    meta.plan(inputs)
    return outs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--build-dir", required=True)
    args = ap.parse_args()
    E.build(args.gen, "cpu", args.build_dir)
    second = os.path.join(args.build_dir, "second")
    os.makedirs(second, exist_ok=True)
    cpp_extension.load(
        name="imeta_deepinfer_v4_second",
        sources=[os.path.join(args.gen, "deepinfer_v4_torch.cpp"),
                 os.path.join(args.gen, "deepinfer_v4.cpp")],
        extra_cflags=["-O1", "-DIMETA_TORCH_PYTHON",
                      "-DIMETA_TORCH_LIBRARY=imeta_deepinfer_v4_second"],
        extra_include_paths=[args.gen], build_directory=second)
    first = step(torch.classes.imeta_deepinfer_v4.DecodeZos)
    other = step(torch.classes.imeta_deepinfer_v4_second.DecodeZos)
    for name, t in first.items():
        if not torch.equal(t, other[name]):
            sys.exit(f"two builds: output '{name}' differs")
    print(f"two builds of one spec loaded side by side; "
          f"{len(first)} outputs equal")


if __name__ == "__main__":
    main()
