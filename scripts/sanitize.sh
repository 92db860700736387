#!/usr/bin/env bash
# Configures and builds the sanitizer build in build-san/: clang-22 with
# ASan and UBSan (any report fatal) over everything C++ - the tools, the
# unit tests, the generated CPU code - and the libFuzzer harnesses of
# test/fuzz; RelWithDebInfo with line tables, libstdc++'s assertions on.
# Installs clang-22 and libclang-rt-22-dev if missing. Builds TARGETs
# (default: all). Usage: scripts/sanitize.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang++-22 >/dev/null ||
   ! ls /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update
  $sudo apt-get install -y --no-install-recommends clang-22 libclang-rt-22-dev
fi
mlir_dir=$(scripts/find-mlir.sh) || { echo "sanitize.sh: see above" >&2; exit 1; }
mkdir -p build-san
cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG -D_GLIBCXX_ASSERTIONS" \
  -DIMETA_SANITIZE=ON -DIMETA_FUZZ=ON -DMLIR_DIR="$mlir_dir" > build-san/configure.log
if [ $# -gt 0 ]; then
  cmake --build build-san --target "$@"
else
  cmake --build build-san
fi
