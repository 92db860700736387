#!/usr/bin/env bash
# Issue 33's GPU figures, in one call on a GPU machine without LLVM: the
# decode_async step inside the engine's own graph with a real consumer
# (examples/torch-engine/decode_loop.py: 200 steps, attention checked
# against dense attention every step; pybind11 and TorchScript classes),
# then the torch step (bench/torch/async_step.py) and the C++ step
# (imeta-bench-async-step's 'imeta alone' column) in the same call.
# Beforehand, where imeta-gen is (here, then carry GEN and the bench):
#   imeta-gen specs/deepinfer_v4.mlir --paths decode_async --torch -o GEN
#   cmake --build build --target imeta-bench-async-step
# Usage: async-step-run.sh GEN BENCH_BINARY   (logs in $OUT or ./async-logs)
set -euo pipefail
gen=$1
bench=$2
export PYTHONUNBUFFERED=1
OUT=${OUT:-async-logs}; mkdir -p "$OUT"
here=$(cd "$(dirname "$0")/../.." && pwd)
loop=$here/examples/torch-engine/decode_loop.py
python3 "$loop" --gen "$gen" --device cuda --steps 200 --max-seqs 32 2>&1 \
  | grep -v Warn | tee "$OUT/loop.log"
python3 "$loop" --gen "$gen" --device cuda --steps 200 --max-seqs 64 \
  --torchscript 2>&1 | grep -v Warn | tee -a "$OUT/loop.log"
python3 "$here/bench/torch/async_step.py" --gen "$gen" 2>&1 | grep -v Warn \
  | tee "$OUT/torch-step.log"
python3 "$here/bench/torch/async_step.py" --gen "$gen" --torchscript 2>&1 \
  | grep -v Warn | tee -a "$OUT/torch-step.log"
"$bench" 30 2>&1 | tee "$OUT/cxx-step.log"
