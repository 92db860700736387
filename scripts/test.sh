#!/usr/bin/env bash
# Runs every test (lit: dialect, passes, evaluator; GoogleTest: differential
# tests against the hand-written reference; the CMake and torch engines),
# installing and building first; then the same suite in the sanitizer
# build (scripts/sanitize.sh: ASan and UBSan over the tools, the tests and
# the generated CPU code, any report failing the test); then each fuzzer
# for a while. `--sanitize` runs only the last two. IMETA_SANITIZE=0 skips
# the sanitizer suite; IMETA_FUZZ_SECONDS (60) or IMETA_SKIP_FUZZ=1 the
# fuzzers.
set -euo pipefail
cd "$(dirname "$0")/.."
plain=1
case "${1:-}" in
  --sanitize) plain=0 ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
esac
scripts/install-deps.sh
scripts/install-torch.sh >/dev/null
if [ $plain = 1 ]; then
  scripts/build.sh
  ctest --test-dir build --output-on-failure
fi
if [ "${IMETA_SANITIZE:-1}" != 0 ]; then
  scripts/sanitize.sh
  echo "test: the suite again in the sanitizer build (build-san/)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-san --output-on-failure
fi
# Each libFuzzer harness for a while from its seed corpus (scripts/fuzz.sh).
fuzz_secs=${IMETA_FUZZ_SECONDS:-60}
if [ "${IMETA_SKIP_FUZZ:-0}" != 1 ] && [ "$fuzz_secs" != 0 ]; then
  scripts/fuzz.sh "$fuzz_secs"
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "note: no GPU on this machine: the GPU tests ('gpu', 'gpu-resident', 'gpu-monotone'," \
       "'gpu-divider', 'gpu-device-step', 'gpu-device-rows', 'gpu-state-step'," \
       "'gpu-async-step', 'gpu-async-stream') were" \
       "skipped; run build/test/gpu/imeta-gpu-tests," \
       "build/test/gpu/imeta-gpu-resident-test," \
       "build/test/gpu/imeta-gpu-monotone-test," \
       "build/test/gpu/imeta-gpu-divider-test," \
       "build/test/gpu/imeta-gpu-device-step-test," \
       "build/test/gpu/imeta-gpu-device-rows-test," \
       "build/test/gpu/imeta-gpu-state-step-test," \
       "build/test/gpu/imeta-gpu-async-step-test and" \
       "build/test/gpu/imeta-gpu-async-stream-test where there is one"
fi
