#!/usr/bin/env bash
# Runs every test (lit: dialect, passes, evaluator; GoogleTest: differential
# tests against the hand-written reference; the CMake and torch engines),
# installing and building first, then each fuzzer for a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/install-torch.sh >/dev/null
scripts/build.sh
ctest --test-dir build --output-on-failure
# Each libFuzzer harness for a while from its seed corpus, sanitizers on
# (scripts/fuzz.sh; IMETA_FUZZ_SECONDS, 0 or IMETA_SKIP_FUZZ=1 skips).
fuzz_secs=${IMETA_FUZZ_SECONDS:-60}
if [ "${IMETA_SKIP_FUZZ:-0}" != 1 ] && [ "$fuzz_secs" != 0 ]; then
  scripts/fuzz.sh "$fuzz_secs"
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "note: no GPU on this machine: the GPU tests ('gpu', 'gpu-resident', 'gpu-monotone'," \
       "'gpu-divider') were skipped; run build/test/gpu/imeta-gpu-tests," \
       "build/test/gpu/imeta-gpu-resident-test," \
       "build/test/gpu/imeta-gpu-monotone-test and" \
       "build/test/gpu/imeta-gpu-divider-test where there is one"
fi
