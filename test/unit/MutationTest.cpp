//===- MutationTest.cpp - broken batches get errors, never crashes --------===//
//
// Takes valid random batches, breaks them at random (wrong types, missing
// and unknown keys, negative, zero and huge values, empty lists) and runs
// them through parsing, rules and evaluation on every path. Each must end
// in a result or an error message; build with -DIMETA_SANITIZE=ON to have
// ASan/UBSan check that nothing in between reads out of bounds.
//
//===----------------------------------------------------------------------===//

#include "BatchMutation.h"
#include "RandomBatch.h"
#include "RandomBatchJson.h"
#include "V4Spec.h"

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "lib/Eval/Batch.h"
#include "lib/Eval/Evaluator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>

using namespace imeta;

namespace {

TEST(BrokenBatches, GetAnErrorOrAResultNeverACrash) {
  SpecOp spec = test::v4Spec();
  ASSERT_TRUE(spec);

  int rejected = 0, accepted = 0;
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    std::mt19937_64 rng(seed);
    auto kind = seed % 2 ? ref::PathKind::Decode : ref::PathKind::Prompt;
    llvm::json::Value json = ref::toJson(ref::randomBatch(kind, seed));
    for (int m = 0, n = 1 + rng() % 3; m < n; ++m)
      test::mutateKey(*json.getAsObject(), rng);
    llvm::Expected<Batch> batch = parseBatch(spec, json);
    if (!batch) {
      EXPECT_FALSE(llvm::toString(batch.takeError()).empty());
      ++rejected;
      continue;
    }
    for (auto path : spec.getBody().front().getOps<PathOp>()) {
      Evaluator ev(spec, *batch);
      if (llvm::Error err = ev.checkPath(path)) {
        std::string msg = llvm::toString(std::move(err));
        // A broken rule names itself ("R3: ..."), a field's failure the
        // field ("field 'cp_piece': ...").
        EXPECT_TRUE(
            std::regex_search(msg, std::regex("(^|: )R[0-9]+: |^field '")))
            << msg;
        ++rejected;
        continue;
      }
      auto outputs = ev.evaluatePath(path);
      if (!outputs) {
        EXPECT_FALSE(llvm::toString(outputs.takeError()).empty());
        ++rejected;
      } else {
        ++accepted;
      }
    }
  }
  // Both outcomes occur: the mutations are neither all fatal nor all benign.
  EXPECT_GT(rejected, 100);
  EXPECT_GT(accepted, 100);
}

} // namespace
