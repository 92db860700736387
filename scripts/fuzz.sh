#!/usr/bin/env bash
# Builds the libFuzzer harnesses of test/fuzz in the sanitizer build
# (scripts/sanitize.sh: build-san/, clang-22, ASan and UBSan, everything
# they reach instrumented) and runs each for SECONDS (default 60) from its
# checked-in seed corpus (test/fuzz/corpus/, with test/fuzz/batch.dict for
# batch files): 5 s an input at most, 4 GB, seed 1 (the same inputs in the
# same order wherever it runs); then a sample of the spec inputs that
# imeta-gen accepts is compiled (scripts/compile-fuzzed-specs.sh).
# A crash, a sanitizer report, a timeout or running out of memory stops
# it with the input saved as build-san/crash-* (or timeout-*, oom-*): make
# it a regression test. Usage: scripts/fuzz.sh [SECONDS] [batch|spec|driver...]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
fuzzers=("$@")
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=(batch spec driver)
scripts/sanitize.sh $(printf 'imeta-fuzz-%s ' "${fuzzers[@]}")
for f in "${fuzzers[@]}"; do
  work=build-san/corpus/$f
  mkdir -p "$work"
  dict=()
  [ "$f" = batch ] && dict=(-dict="$PWD/test/fuzz/batch.dict")
  echo "fuzz: $f for $secs s"
  (cd build-san && UBSAN_OPTIONS=print_stacktrace=1 \
    "test/fuzz/imeta-fuzz-$f" -max_total_time="$secs" -timeout=5 -seed=1 \
    -rss_limit_mb=4096 -print_final_stats=1 "${dict[@]}" \
    "corpus/$f" "../test/fuzz/corpus/$f")
done
# What the spec fuzzer reached that imeta-gen accepts must compile.
case " ${fuzzers[*]} " in
  *" spec "*)
    scripts/sanitize.sh imeta-gen
    scripts/compile-fuzzed-specs.sh build-san/tools/imeta-gen/imeta-gen \
      build-san/corpus/spec test/fuzz/corpus/spec ;;
esac
