#!/usr/bin/env bash
# Every spec's GPU paths on the device against the evaluator, for the GPU
# machine, which has nvcc but no LLVM (test/gpu/every-spec.txt lists the
# specs and batches).
#   gpu-every-spec.sh prepare BUILD DIR   here: imeta-gen each spec into
#       DIR/gen, and for each batch and GPU path the run a driver makes
#       (imeta-run --write-replay) with the evaluator's field file or error
#   gpu-every-spec.sh run DIR MODE        compile each spec's generated
#       code with test/gpu/ReplayDriver.cpp and make every run: MODE gpu
#       (nvcc: the host-staged kernels, then the device step where the path
#       has one), stage (c++, the device stage on the host) or host (c++,
#       the CPU routine); each must print the evaluator's field file, or
#       fail with its message. Exits 1 if any differs.
#   gpu-every-spec.sh check BUILD         prepare into BUILD/every-spec,
#       then run host and stage (ctest every-spec-replay: the harness
#       and the replay files, without a GPU)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
prepare)
  build=$(cd "$2" && pwd)
  dir=$3
  rm -rf "$dir" && mkdir -p "$dir/gen" "$dir/cases"
  : > "$dir/cases.txt"
  while read -r spec batch paths; do
    [[ -z "$spec" || "$spec" == \#* ]] && continue
    name=$(basename "$spec" .mlir)
    [ -d "$dir/gen/$name" ] ||
      "$build/tools/imeta-gen/imeta-gen" "$src/$spec" -o "$dir/gen/$name"
    [ -n "$paths" ] || paths=$(sed -n 's/.*imeta\.path @\([A-Za-z0-9_]*\) target(gpu).*/\1/p' "$src/$spec")
    for p in $paths; do
      id="$name.$p.$(basename "$batch" .json)"
      rc=0
      "$build/tools/imeta-run/imeta-run" "$src/$spec" --path "$p" \
        --batch "$src/$batch" --write-replay "$dir/cases/$id.replay" \
        > "$dir/cases/$id.expected" 2> "$dir/cases/$id.err" || rc=$?
      if [ ! -s "$dir/cases/$id.replay" ]; then
        echo "gpu-every-spec: $spec, path $p: $batch is no batch of it:" \
          "$(cat "$dir/cases/$id.err")" >&2
        exit 1
      fi
      # The evaluator's error, as the driver words it (no tool prefix).
      sed -i 's/^imeta-run: error: //' "$dir/cases/$id.err"
      echo "$name $id $rc" >> "$dir/cases.txt"
    done
  done < "$src/test/gpu/every-spec.txt"
  echo "prepared $(wc -l < "$dir/cases.txt") runs of $(ls "$dir/gen" | wc -l) specs in $dir"
  ;;
run)
  dir=$(cd "$2" && pwd)
  mode=$3
  mkdir -p "$dir/bin"
  case "$mode" in
    gpu) args="1 3" ;;
    stage) args=2 ;;
    host) args=0 ;;
    *) echo "gpu-every-spec.sh: mode gpu, stage or host" >&2; exit 64 ;;
  esac
  # Each spec's driver, compiled side by side.
  for gen in "$dir"/gen/*; do
    name=$(basename "$gen")
    bin="$dir/bin/$name.$mode"
    # The generated files are named for the spec's symbol.
    base=$(basename "$(ls "$gen"/*_driver.cpp)" _driver.cpp)
    if [ "$mode" = gpu ]; then
      nvcc -std=c++17 -O2 -arch=sm_90 -DIMETA_DRIVER_CUDA -I"$src" -I"$gen" \
        "$gen/$base.cpp" "$gen/$base.cu" "$gen/${base}_driver.cpp" \
        "$src/test/gpu/ReplayDriver.cpp" -o "$bin" &
    else
      "${CXX:-c++}" -std=c++17 -O1 -I"$src" -I"$gen" "$gen/$base.cpp" \
        "$gen/${base}_driver.cpp" "$src/test/gpu/ReplayDriver.cpp" -o "$bin" &
    fi
  done
  built=0
  for job in $(jobs -p); do wait "$job" || built=1; done
  [ $built = 0 ] || { echo "gpu-every-spec: a driver did not build" >&2; exit 1; }
  fail=0 runs=0 skipped=0
  while read -r name id rc; do
    for arg in $args; do
      runs=$((runs + 1))
      got=0
      run=$mode
      [ "$arg" != 3 ] || run=$mode-step
      out="$dir/cases/$id.$run"
      "$dir/bin/$name.$mode" "$dir/cases/$id.replay" "$arg" \
        > "$out.out" 2> "$out.err" || got=$?
      if [ "$rc" = 0 ] && [ "$got" = 0 ] &&
         cmp -s "$dir/cases/$id.expected" "$out.out"; then
        echo "ok   $id ($run)"
      elif [ "$rc" != 0 ] && [ "$got" != 0 ] &&
           cmp -s "$dir/cases/$id.err" "$out.err"; then
        echo "ok   $id ($run, refused: $(head -c 100 "$dir/cases/$id.err"))"
      elif [ "$arg" -ge 2 ] && grep -q "has no device st" "$out.err"; then
        skipped=$((skipped + 1))
        echo "--   $id ($run): $(cat "$out.err")"
      else
        fail=1
        echo "FAIL $id ($run): evaluator rc $rc, $run rc $got"
        diff "$dir/cases/$id.expected" "$out.out" | head -5 || true
        diff "$dir/cases/$id.err" "$out.err" | head -5 || true
      fi
    done
  done < "$dir/cases.txt"
  echo "gpu-every-spec ($mode): $((runs - skipped)) runs $([ $fail = 0 ] && echo all equal to the evaluator || echo some differ) ($skipped skipped: no device stage or step)"
  exit $fail
  ;;
check)
  "$0" prepare "$2" "$2/every-spec"
  "$0" run "$2/every-spec" host
  "$0" run "$2/every-spec" stage
  ;;
*)
  echo "usage: gpu-every-spec.sh prepare BUILD DIR | run DIR gpu|stage|host | check BUILD" >&2
  exit 64
  ;;
esac
