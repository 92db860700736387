#!/usr/bin/env bash
# The spec fuzzer's inputs that imeta-gen accepts, compiled: up to 60 of
# them (in name order, so the same sample wherever it runs), each one's
# generated host code and driver under an engine's strict flags and, where
# nvcc is, its CUDA file (issue 34: a name the verifier accepts must
# compile). A spec that generates but does not compile fails the run, its
# path printed. Usage: scripts/compile-fuzzed-specs.sh IMETA_GEN DIR...
set -euo pipefail
gen=$1
shift
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -Wall -Wextra -Wshadow -Wpedantic -Werror -I"$src")
accepted=0 tried=0
while IFS= read -r spec; do
  tried=$((tried + 1))
  out="$work/out"
  rm -rf "$out"
  # Only what imeta-gen accepts (a bad spec's error is the verifier's job).
  timeout 10 "$gen" "$spec" -o "$out" --name fuzzed > /dev/null 2>&1 || continue
  accepted=$((accepted + 1))
  for file in "$out"/fuzzed.cpp "$out"/fuzzed_driver.cpp; do
    if ! g++ "${flags[@]}" -I"$out" -fsyntax-only "$file" 2> "$work/log"; then
      echo "compile-fuzzed-specs: $spec: $(basename "$file") does not compile:" >&2
      head -20 "$work/log" >&2
      exit 1
    fi
  done
  if [ -f "$out/fuzzed.cu" ] && command -v nvcc > /dev/null; then
    if ! nvcc -std=c++17 -arch=sm_90 -I"$src" -I"$out" -c -o "$work/cu.o" \
        "$out/fuzzed.cu" 2> "$work/log"; then
      echo "compile-fuzzed-specs: $spec: fuzzed.cu does not compile:" >&2
      head -20 "$work/log" >&2
      exit 1
    fi
  fi
  [ $accepted -ge 60 ] && break
done < <(find "$@" -type f | sort)
echo "compile-fuzzed-specs: $accepted of the $tried inputs read were accepted; each compiled"
