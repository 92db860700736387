#!/usr/bin/env bash
# Configures and builds imeta into build/ (Release, Ninja).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
cmake --build build
