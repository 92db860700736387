#!/usr/bin/env bash
# Runs every test (lit: dialect, passes, evaluator; GoogleTest: differential
# tests against the hand-written reference), installing and building first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/install-torch.sh >/dev/null
scripts/build.sh
ctest --test-dir build --output-on-failure
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "note: no GPU on this machine: the GPU tests ('gpu', 'gpu-resident', 'gpu-monotone'," \
       "'gpu-divider') were skipped; run build/test/gpu/imeta-gpu-tests," \
       "build/test/gpu/imeta-gpu-resident-test," \
       "build/test/gpu/imeta-gpu-monotone-test and" \
       "build/test/gpu/imeta-gpu-divider-test where there is one"
fi
