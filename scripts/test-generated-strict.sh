#!/usr/bin/env bash
# The generated code as a guest in an engine's build (ctest
# generated-strict): for every spec in specs/ and specs/examples,
# imeta-gen's .cpp and driver compile with -Wall -Wextra -Wshadow
# -Wpedantic -Werror under the C++ compiler given (and clang++ where there
# is one), at -O2 for the small specs (the optimizer's warnings; the
# shipped spec's sources are compiled at -O2 with the same flags by the
# build: test/unit). A second imeta-gen run touches no file, and no
# generated text holds the directory the spec was read from.
# Usage: test-generated-strict.sh IMETA_GEN SOURCE_DIR CXX
set -euo pipefail
gen=$1
src=$(cd "$2" && pwd)
cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -Wall -Wextra -Wshadow -Wpedantic -Werror -I"$src")
compilers=("$cxx")
# clang++ too, unless the compiler given is the same program.
command -v clang++ > /dev/null &&
  [ "$(readlink -f "$(command -v clang++)")" != \
    "$(readlink -f "$(command -v "$cxx")")" ] && compilers+=(clang++)
specs=("$src"/specs/*.mlir "$src"/specs/examples/*.mlir
       "$src"/test/Lowering/Inputs/near_reserved_names.mlir
       "$src"/test/Eval/Inputs/axes.mlir)
for spec in "${specs[@]}"; do
  name=$(basename "$spec" .mlir)
  out="$work/$name"
  "$gen" "$spec" -o "$out"
  # As given: the spec's directory must not appear in what was written.
  if grep -rlF "$(dirname "$spec")" "$out" > /dev/null; then
    echo "generated-strict: $name: the spec's directory is in $(grep -rlF "$(dirname "$spec")" "$out" | head -1)" >&2
    exit 1
  fi
  # Dated back to 2000, a file the second run rewrites is newer than 2001
  # whatever the file system's timestamp granularity.
  touch -d 2000-01-01 "$out"/*
  "$gen" "$spec" -o "$out"
  rewritten=$(find "$out" -type f -newermt 2001-01-01 | head -1)
  if [ -n "$rewritten" ]; then
    echo "generated-strict: $name: a second imeta-gen rewrote $rewritten" >&2
    exit 1
  fi
  # The shipped spec's sources take minutes at -O2: checked here without
  # the optimizer, at -O2 by the build.
  opt=(-O2 -c -o "$work/obj.o")
  [ "$(wc -c < "$out/$name.cpp")" -gt 500000 ] && opt=(-fsyntax-only)
  for c in "${compilers[@]}"; do
    for file in "$out/$name.cpp" "$out/${name}_driver.cpp"; do
      if ! "$c" "${flags[@]}" -I"$out" "${opt[@]}" "$file" 2> "$work/log"; then
        echo "generated-strict: $c ${opt[0]} on $(basename "$file"):" >&2
        head -20 "$work/log" >&2
        exit 1
      fi
    done
  done
  echo "$name: -Wall -Wextra -Wshadow -Wpedantic -Werror clean (${opt[0]};" \
    "${compilers[*]}); a second generation touched nothing"
done
