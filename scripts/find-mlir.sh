#!/usr/bin/env bash
# Prints where MLIR 22's CMake package is: $MLIR_DIR where set, else the
# mlir beside $LLVM_DIR, else the prefix of llvm-config-22 or of an
# llvm-config of version 22 on PATH (Debian and Ubuntu's LLVM packages,
# apt.llvm.org, a conda environment's LLVM). Fails with a message if none.
set -euo pipefail
mlir_dir=${MLIR_DIR:-}
if [ -z "$mlir_dir" ] && [ -n "${LLVM_DIR:-}" ]; then
  mlir_dir="$(dirname "$LLVM_DIR")/mlir"
fi
if [ -z "$mlir_dir" ]; then
  for config in llvm-config-22 llvm-config; do
    if command -v "$config" >/dev/null &&
       [ "$("$config" --version | cut -d. -f1)" = 22 ]; then
      mlir_dir="$("$config" --prefix)/lib/cmake/mlir"
      break
    fi
  done
fi
if [ -z "$mlir_dir" ] || [ ! -f "$mlir_dir/MLIRConfig.cmake" ]; then
  echo "MLIR 22 not found${mlir_dir:+ in $mlir_dir}: set" \
       "MLIR_DIR=<prefix>/lib/cmake/mlir (or LLVM_DIR=<prefix>/lib/cmake/llvm)" \
       "or put llvm-config-22 on PATH" >&2
  exit 1
fi
echo "$mlir_dir"
