#!/usr/bin/env bash
# The torch step's figures of bench/RESULTS.md, in one call on a GPU
# machine without LLVM: the torch example checked (CUDA graph, both
# classes), the binding's per-call costs, the torch step twice at N = 64,
# 256, 1024, then the C++ step bench on the same generated code.
# Beforehand, where imeta-gen and imeta-run are (here, then carry gen/):
#   imeta-gen specs/deepinfer_v4.mlir -o gen
#   imeta-gen test/gpu/monotone_loads.mlir -o gen
#   imeta-gen specs/deepinfer_v4.mlir --paths decode_zos --torch -o gen/torch
#   python3 examples/torch-engine/engine.py --gen gen/torch --imeta-run \
#     build/tools/imeta-run/imeta-run --steps 100 --max-seqs 64 --hist 4000 \
#     --record gen/exp64
# Logs land in $OUT (or ./torch-step-logs).
export PYTHONUNBUFFERED=1
E=examples/torch-engine/engine.py
set -o pipefail
OUT=${OUT:-torch-step-logs}; mkdir -p "$OUT"
python3 $E --gen gen/torch --device cuda --expected gen/exp64 --steps 100 --max-seqs 64 --hist 4000 2>&1 | grep -v Warn | tee $OUT/check.log || exit 1
python3 $E --gen gen/torch --device cuda --expected gen/exp64 --steps 100 --max-seqs 64 --hist 4000 --torchscript 2>&1 | grep -v Warn | tee $OUT/check-ts.log || exit 1
python3 bench/torch/binding_calls.py --gen gen/torch --device cuda --max-seqs 64 2>&1 | grep -v Warn | tee $OUT/calls.log
for r in 1 2; do for n in 64 256 1024; do
  python3 $E --gen gen/torch --device cuda --no-check --steps 300 --max-seqs $n --hist 131072 2>&1 | tail -1 | sed "s/^/pybind N=$n /"
done; done | tee $OUT/steps.log
for n in 64 1024; do
  python3 $E --gen gen/torch --device cuda --no-check --steps 300 --max-seqs $n --hist 131072 --torchscript 2>&1 | tail -1 | sed "s/^/torchscript N=$n /"
done | tee -a $OUT/steps.log
(cmake -S . -B build/dev -G Ninja -DIMETA_GPU_ONLY=ON -DIMETA_GENERATED_DIR=$PWD/gen >/dev/null && cmake --build build/dev -j16 --target imeta-bench-step 2>&1 | tail -1) && build/dev/bench/gpu/imeta-bench-step 2>&1 | tail -10 | tee $OUT/cxx.log
