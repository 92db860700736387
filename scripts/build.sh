#!/usr/bin/env bash
# Configures and builds imeta into build/ (Release, Ninja), against MLIR 22
# where scripts/find-mlir.sh finds it ($MLIR_DIR, $LLVM_DIR, llvm-config-22).
set -euo pipefail
cd "$(dirname "$0")/.."
mlir_dir=$(scripts/find-mlir.sh) || { echo "build.sh: see above" >&2; exit 1; }
cmake -S . -B build -G Ninja -DMLIR_DIR="$mlir_dir"
cmake --build build
