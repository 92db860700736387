#!/usr/bin/env bash
# Builds the libFuzzer harnesses of test/fuzz with clang-22, ASan and UBSan
# (build-fuzz/, everything they reach instrumented) and runs each for
# SECONDS (default 60) from its checked-in seed corpus (test/fuzz/corpus/,
# with test/fuzz/batch.dict for batch files): 5 s a input at most, 4 GB,
# seed 1 (the same inputs in the same order wherever it runs).
# A crash, a sanitizer report, a timeout or running out of memory stops
# it with the input saved as build-fuzz/crash-* (or timeout-*, oom-*): make
# it a regression test. Usage: scripts/fuzz.sh [SECONDS] [batch|spec|driver...]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
fuzzers=("$@")
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=(batch spec driver)
if ! command -v clang++-22 >/dev/null || ! ls /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update
  $sudo apt-get install -y --no-install-recommends clang-22 libclang-rt-22-dev
fi
mlir_dir=$(scripts/find-mlir.sh)
mkdir -p build-fuzz
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
  -DIMETA_FUZZ=ON -DMLIR_DIR="$mlir_dir" > build-fuzz/configure.log
cmake --build build-fuzz --target $(printf 'imeta-fuzz-%s ' "${fuzzers[@]}")
for f in "${fuzzers[@]}"; do
  work=build-fuzz/corpus/$f
  mkdir -p "$work"
  dict=()
  [ "$f" = batch ] && dict=(-dict="$PWD/test/fuzz/batch.dict")
  echo "fuzz: $f for $secs s"
  (cd build-fuzz && UBSAN_OPTIONS=print_stacktrace=1 \
    "test/fuzz/imeta-fuzz-$f" -max_total_time="$secs" -timeout=5 -seed=1 \
    -rss_limit_mb=4096 -print_final_stats=1 "${dict[@]}" \
    "corpus/$f" "../test/fuzz/corpus/$f")
done
