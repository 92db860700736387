#!/usr/bin/env bash
# The newcomer's first command: install the dependencies, build everything,
# then evaluate the shipped DeepInfer V4 spec on the example batches.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
for example in prompt:specs/examples/prompt_small.json \
               decode:specs/examples/decode_small.json \
               decode_zos:specs/examples/decode_small.json; do
  path=${example%%:*} batch=${example#*:}
  echo "== imeta-run specs/deepinfer_v4.mlir --path $path --batch $batch"
  build/tools/imeta-run/imeta-run specs/deepinfer_v4.mlir --path "$path" \
    --batch "$batch"
done
