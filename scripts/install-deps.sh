#!/usr/bin/env bash
# Installs what imeta builds with on Debian 12: LLVM/MLIR 22 (from
# bookworm-security), CMake, Ninja, GoogleTest, Python's venv (for
# scripts/install-torch.sh). Needs root (or sudo).
set -euo pipefail

packages=(cmake ninja-build g++ python3 python3-venv libgtest-dev libbenchmark-dev
          libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
# libmlir-19-dev conflicts with the MLIR 22 packages.
if dpkg-query -W libmlir-19-dev >/dev/null 2>&1; then
  $sudo apt-get remove -y libmlir-19-dev
fi
$sudo apt-get install -y --no-install-recommends "${missing[@]}"
