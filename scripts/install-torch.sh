#!/usr/bin/env bash
# A Python environment holding PyTorch from PyPI, for the torch binding's
# example and its test (ctest torch-engine): $IMETA_TORCH_VENV, default
# ~/.cache/imeta/torch-venv. About 5 GB (PyPI's Linux wheels bring CUDA's
# libraries; the CPU runs fine without a GPU). IMETA_SKIP_TORCH=1 skips it
# (the test then reports itself skipped). Prints the environment's python.
set -euo pipefail
venv="${IMETA_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/imeta/torch-venv}"
if [ "${IMETA_SKIP_TORCH:-0}" = 1 ]; then
  echo "install-torch: skipped (IMETA_SKIP_TORCH=1)" >&2
  exit 0
fi
if "$venv/bin/python" -c "import torch" 2>/dev/null; then
  echo "install-torch: $venv already has torch" >&2
else
  echo "install-torch: installing torch into $venv (about 5 GB)" >&2
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check \
    "torch==2.15.0" numpy >&2
fi
echo "$venv/bin/python"
