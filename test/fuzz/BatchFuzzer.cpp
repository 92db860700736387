//===- BatchFuzzer.cpp - libFuzzer: batch files against the V4 spec ------===//
//
// Any bytes as a batch file of specs/deepinfer_v4.mlir: read within the
// limits (lib/Eval/BatchJson), checked against the spec's declarations and
// rules, evaluated on each of its paths. An error is fine; a crash, a
// sanitizer report, a timeout or running out of memory is a bug.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpec.h"
#include "lib/Eval/Batch.h"
#include "lib/Eval/BatchJson.h"
#include "lib/Eval/Evaluator.h"

#include "llvm/ADT/StringRef.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static imeta::fuzz::LoadedSpec v4 =
      imeta::fuzz::loadSpec(IMETA_SPEC_DIR "/deepinfer_v4.mlir");
  llvm::Expected<llvm::json::Value> json = imeta::parseBatchJson(
      llvm::StringRef(reinterpret_cast<const char *>(data), size));
  if (!json) {
    llvm::consumeError(json.takeError());
    return 0;
  }
  for (imeta::PathOp path :
       v4.file.spec.getBody().front().getOps<imeta::PathOp>()) {
    llvm::Expected<imeta::Batch> batch =
        imeta::parseBatch(v4.file.spec, *json, path);
    if (!batch) {
      llvm::consumeError(batch.takeError());
      continue;
    }
    imeta::Evaluator evaluator(v4.file.spec, *batch);
    if (llvm::Error err = evaluator.checkPath(path)) {
      llvm::consumeError(std::move(err));
      continue;
    }
    auto outputs = evaluator.evaluatePath(path);
    if (!outputs)
      llvm::consumeError(outputs.takeError());
  }
  return 0;
}
