#!/usr/bin/env bash
# The CMake package end to end (ctest cmake-engine): install this build
# into a fresh prefix, configure examples/cmake-engine against it with only
# CMAKE_PREFIX_PATH, build it (imeta-gen runs at build time on the
# engine's spec), run it, and compare its output with imeta-run's on the
# same batch. Usage: test-cmake-engine.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work="$build/cmake-engine-test"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
# A copy of the example, so that its spec can change.
cp -r "$src/examples/cmake-engine" "$work/src"
cmake -S "$work/src" -B "$work/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
"$work/build/engine" > "$work/engine.json"
# A changed spec is generated again at the next build; an unchanged one
# is not.
cmake --build "$work/build" > "$work/rebuild.log"
if grep -q "imeta-gen:" "$work/rebuild.log"; then
  echo "cmake-engine: imeta-gen ran again on an unchanged spec" >&2; exit 1
fi
echo "// edited" >> "$work/src/engine.mlir"
cmake --build "$work/build" > "$work/rebuild.log"
grep -q "imeta-gen: engine_meta" "$work/rebuild.log" || {
  echo "cmake-engine: a changed spec was not generated again" >&2; exit 1; }
IMETA_CACHE_DIR="$work/cache" "$work/prefix/bin/imeta-run" \
  "$src/examples/cmake-engine/engine.mlir" --path step \
  --batch "$src/examples/cmake-engine/batch.json" > "$work/imeta-run.json"
diff "$work/imeta-run.json" "$work/engine.json"

# The same engine from sources generated beforehand (GENERATED_DIR).
"$work/prefix/bin/imeta-gen" "$src/examples/cmake-engine/engine.mlir" \
  -o "$work/pregenerated" --name engine_meta
cmake -S "$src/examples/cmake-engine" -B "$work/build-pregenerated" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DENGINE_GENERATED_DIR="$work/pregenerated" > "$work/configure2.log"
cmake --build "$work/build-pregenerated" > "$work/build2.log"
"$work/build-pregenerated/engine" > "$work/engine2.json"
diff "$work/imeta-run.json" "$work/engine2.json"
# The generated sources in the engine's own target (TARGET), in a
# directory of its choosing (OUTPUT_DIR), listed to it (OUT_VAR).
cmake -S "$src/examples/cmake-engine" -B "$work/build-target" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DENGINE_INTO_TARGET=ON \
  > "$work/configure3.log"
grep -q "engine_meta sources: $work/build-target/meta/engine_meta.cpp" \
  "$work/configure3.log" || {
  echo "cmake-engine: OUT_VAR does not list meta/engine_meta.cpp" >&2; exit 1; }
cmake --build "$work/build-target" > "$work/build3.log"
"$work/build-target/engine" > "$work/engine3.json"
diff "$work/imeta-run.json" "$work/engine3.json"

# Without NAME, the files are named as imeta-gen names them, after the
# spec's symbol (@engine, its namespace imeta_gen::engine), not the file's.
mkdir -p "$work/default-name"
cp "$src/examples/cmake-engine/engine.mlir" "$work/default-name/other.mlir"
cat > "$work/default-name/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(default_name LANGUAGES CXX)
find_package(imeta 0.1 CONFIG REQUIRED)
imeta_add_metadata_library(meta SPEC other.mlir OUT_VAR sources)
message(STATUS "sources: ${sources}")
CMAKE
cmake -S "$work/default-name" -B "$work/default-name/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure4.log"
grep -q "sources: .*/meta.imeta/engine.cpp" "$work/configure4.log" || {
  echo "cmake-engine: without NAME the files are not named after @engine" >&2
  exit 1; }
cmake --build "$work/default-name/build" > "$work/build4.log"
# TORCH without TARGET is refused at configure, saying why.
cat > "$work/default-name/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(default_name LANGUAGES CXX)
find_package(imeta 0.1 CONFIG REQUIRED)
imeta_add_metadata_library(meta SPEC other.mlir TORCH)
CMAKE
if cmake -S "$work/default-name" -B "$work/default-name/build-torch" -G Ninja \
     -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure5.log" 2>&1; then
  echo "cmake-engine: TORCH without TARGET configured" >&2; exit 1
fi
grep -q "TORCH needs TARGET" "$work/configure5.log" || {
  echo "cmake-engine: TORCH without TARGET: no reason given" >&2
  cat "$work/configure5.log" >&2; exit 1; }

# A spec that does not verify: configure passes, the build fails with
# imeta-gen's located diagnostic (no MLIR operation dump).
cp -r "$src/examples/cmake-engine" "$work/src-bad"
sed -i 's/imeta.output "positions" = @positions/imeta.output "positions" = @nope/' \
  "$work/src-bad/engine.mlir"
grep -q '@nope' "$work/src-bad/engine.mlir" || {
  echo "cmake-engine: the broken spec is not broken" >&2; exit 1; }
cmake -S "$work/src-bad" -B "$work/build-bad" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure-bad.log"
if cmake --build "$work/build-bad" > "$work/build-bad.log" 2>&1; then
  echo "cmake-engine: a spec that does not verify built" >&2; exit 1
fi
grep -q "engine.mlir:[0-9]*:[0-9]*: error: .*@nope" "$work/build-bad.log" || {
  echo "cmake-engine: the build failed without the located diagnostic" >&2
  cat "$work/build-bad.log" >&2; exit 1; }
if grep -q "see current operation" "$work/build-bad.log"; then
  echo "cmake-engine: the build printed an MLIR operation dump" >&2; exit 1
fi

# The runtime as an engine includes it, <imeta/runtime/X.h>, beside an
# engine's own runtime/ holding headers of the same names: the package's
# headers include theirs, not the engine's, and warn nothing under strict
# flags.
mkdir -p "$work/own/runtime"
for h in DriverAbi.h ResidentTable.h; do
  echo "#error \"the engine's own runtime/$h was included\"" \
    > "$work/own/runtime/$h"
done
printf '#include <imeta/runtime/DriverArgs.h>\n#include <imeta/runtime/ResidentTable.h>\nint main() { return 0; }\n' \
  > "$work/own/uses_runtime.cpp"
"${CXX:-c++}" -std=c++17 -Wall -Wextra -Wshadow -Wpedantic -Werror \
  -I"$work/own" -isystem "$work/prefix/include" -fsyntax-only \
  "$work/own/uses_runtime.cpp"
echo "cmake-engine: installed, configured from the prefix, built (generated" \
     "at build time and beforehand), and its output equals imeta-run's;" \
     "into the engine's own target too; a broken spec fails the build with" \
     "its located diagnostic; <imeta/runtime/X.h> compiles beside an" \
     "engine's own runtime/"
