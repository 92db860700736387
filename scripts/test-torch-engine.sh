#!/usr/bin/env bash
# The PyTorch binding on the CPU (ctest torch-engine): generate decode_zos
# of specs/deepinfer_v4.mlir with --torch, build it with torch's extension
# machinery, and run examples/torch-engine (the Python module's class, then
# TorchScript's): 100 decode steps (growing sequences, joins, finishes)
# each equal to the evaluator's fields, and a batch that breaks a rule
# raising the evaluator's message; then test/torch/binding_errors.py
# (every refusal names its cause, outputs untouched); then
# test/torch/two_builds.py (a second build of the binding, its own torch
# library, loads beside the first); then examples/cmake-torch built through
# the installed CMake package and test/torch/cmake_torch.py running it;
# then test/torch/async_state.py (decode_async on request state tensors equal
# to the evaluator's fields, state lists as tables, its refusals); then
# examples/torch-engine/decode_loop.py (decode_async feeding a paged KV
# write, SDPA and a sampler, checked against dense attention); then
# test/torch/compiled_step.py (the step operator under
# torch.compile(fullgraph=True)); then test/torch/every_spec.py
# (the binding of every spec in specs/ and specs/examples, each path on an
# example batch equal to the evaluator, or refused in its words). Python: the
# $IMETA_PYTHON, else scripts/install-torch.sh's environment, else python3,
# whichever imports torch; none does: exit 77 (skipped, said so).
# Usage: test-torch-engine.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
venv="${IMETA_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/imeta/torch-venv}"
py=""
for candidate in ${IMETA_PYTHON:-} "$venv/bin/python" python3; do
  if "$candidate" -c "import torch" 2>/dev/null; then py=$candidate; break; fi
done
if [ -z "$py" ]; then
  echo "torch-engine: SKIPPED: no Python with torch here" \
       "(scripts/install-torch.sh installs one)"
  exit 77
fi
work="$build/torch-engine-test"
rm -rf "$work/gen"
mkdir -p "$work"
"$build/tools/imeta-gen/imeta-gen" "$src/specs/deepinfer_v4.mlir" \
  --paths decode_zos --torch -o "$work/gen"
IMETA_CACHE_DIR="$build/test/compile-cache" \
"$py" "$src/examples/torch-engine/engine.py" --gen "$work/gen" \
  --build-dir "$work/ext" --imeta-run "$build/tools/imeta-run/imeta-run" \
  --steps 100 --max-seqs 16 --hist 2000
# The same binding as TorchScript's class (torch.classes), a shorter loop.
"$py" "$src/examples/torch-engine/engine.py" --gen "$work/gen" \
  --build-dir "$work/ext" --imeta-run "$build/tools/imeta-run/imeta-run" \
  --steps 20 --max-seqs 16 --hist 2000 --torchscript
# The binding's refusals, through both classes.
"$py" "$src/test/torch/binding_errors.py" --gen "$work/gen" \
  --build-dir "$work/ext"
# Two builds of one spec in one process (each its own torch library).
"$py" "$src/test/torch/two_builds.py" --gen "$work/gen" \
  --build-dir "$work/ext"
# Request state through the binding: decode_async's own binding.
rm -rf "$work/gen-async"
"$build/tools/imeta-gen/imeta-gen" "$src/specs/deepinfer_v4.mlir" \
  --paths decode_async --torch -o "$work/gen-async"
IMETA_CACHE_DIR="$build/test/compile-cache" \
"$py" "$src/test/torch/async_state.py" --gen "$work/gen-async" \
  --build-dir "$work/ext-async" \
  --imeta-run "$build/tools/imeta-run/imeta-run"
# The decode_async step in an engine's decode loop with a real consumer
# (paged KV write, PyTorch's SDPA, a sampler on the request state): on the
# CPU without the graph (bench/torch/async-step-run.sh runs it in one CUDA
# graph on a GPU), 200 steps, every attention row equal to dense attention.
"$py" "$src/examples/torch-engine/decode_loop.py" --gen "$work/gen-async" \
  --build-dir "$work/ext-async" --steps 200 --max-seqs 16
"$py" "$src/examples/torch-engine/decode_loop.py" --gen "$work/gen-async" \
  --build-dir "$work/ext-async" --steps 30 --max-seqs 8 --torchscript
# The step operator (torch.ops.<library>.decode_async_step, its outputs
# declared mutated) inside torch.compile(fullgraph=True): aot_eager and
# inductor, equal to plan()'s fields.
"$py" "$src/test/torch/compiled_step.py" --gen "$work/gen-async" \
  --build-dir "$work/ext-async"
# The binding built through the CMake package (examples/cmake-torch:
# TORCH into the engine's own module), loaded and run in Python.
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
torch_cmake=$("$py" -c "import torch; print(torch.utils.cmake_prefix_path)")
cmake -S "$src/examples/cmake-torch" -B "$work/cmake-torch" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix;$torch_cmake" > "$work/cmake-torch.log"
cmake --build "$work/cmake-torch" >> "$work/cmake-torch.log"
"$build/tools/imeta-run/imeta-run" "$src/examples/cmake-engine/engine.mlir" \
  --path step --batch "$src/examples/cmake-engine/batch.json" \
  > "$work/cmake-torch.json"
"$py" "$src/test/torch/cmake_torch.py" \
  --module "$work/cmake-torch/libengine_torch.so" \
  --batch "$src/examples/cmake-engine/batch.json" \
  --expect "$work/cmake-torch.json"
# Every spec's binding (specs/ and specs/examples), every path on an
# example batch, against the evaluator.
"$py" "$src/test/torch/every_spec.py" \
  --imeta-gen "$build/tools/imeta-gen/imeta-gen" \
  --imeta-run "$build/tools/imeta-run/imeta-run" --build-dir "$work/every-spec"
# Fields over a subset (some members, none), folds, prefix sums of rows
# fields, an axis.
inputs="$src/test/Eval/Inputs"
"$py" "$src/test/torch/every_spec.py" \
  --imeta-gen "$build/tools/imeta-gen/imeta-gen" \
  --imeta-run "$build/tools/imeta-run/imeta-run" --build-dir "$work/language" \
  "$inputs/subsets.mlir:$inputs/subsets_some.json" \
  "$inputs/subsets.mlir:$inputs/subsets_none.json" \
  "$inputs/folds.mlir:$inputs/folds.json" \
  "$inputs/rows_prefix.mlir:$inputs/rows_prefix.json" \
  "$inputs/axes.mlir:$src/test/Eval/Inputs/axes.json"
# Optional outputs: absent (present() false) where the evaluator leaves
# their keys out.
opt="$src/test/Eval/Inputs/optional_outputs.mlir"
"$py" "$src/test/torch/every_spec.py" \
  --imeta-gen "$build/tools/imeta-gen/imeta-gen" \
  --imeta-run "$build/tools/imeta-run/imeta-run" --build-dir "$work/optional" \
  "$opt:$src/test/Eval/Inputs/optional_some.json" \
  "$opt:$src/test/Eval/Inputs/optional_none.json"
