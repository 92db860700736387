//===- DifferentialTest.cpp - evaluator vs. the hand-written reference ----===//
//
// Runs specs/deepinfer_v4.mlir through the reference evaluator on seeded
// random batches and compares every field, on every path, with ReferenceV4
// (SPEC.md written out as plain loops). The field sets must match exactly:
// a field the spec forgets, or one it adds, fails.
//
//===----------------------------------------------------------------------===//

#include "RandomBatch.h"
#include "RandomBatchJson.h"
#include "ReferenceV4.h"
#include "V4Spec.h"

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "lib/Eval/Batch.h"
#include "lib/Eval/Evaluator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace imeta;

namespace {

constexpr int kSeeds = 2000;

/// Compares the evaluator with the reference on the shipped spec.
class DeepInferV4 : public ::testing::Test {
protected:
  SpecOp spec() { return test::v4Spec(); }
  PathOp path(llvm::StringRef name) { return test::v4Path(name); }

  /// Evaluates `pathName` on `batch` and compares with `expected`.
  void compare(const ref::Batch &batch, llvm::StringRef pathName,
               const ref::Fields &expected, uint64_t seed) {
    SCOPED_TRACE(llvm::formatv("seed {0}, path {1}, batch {2}", seed, pathName,
                               ref::toJson(batch))
                     .str());
    llvm::Expected<Batch> parsed = parseBatch(spec(), ref::toJson(batch));
    ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
    Evaluator ev(spec(), *parsed);
    llvm::Error rules = ev.checkPath(path(pathName));
    ASSERT_FALSE(bool(rules)) << llvm::toString(std::move(rules));
    auto outputs = ev.evaluatePath(path(pathName));
    ASSERT_TRUE(bool(outputs)) << llvm::toString(outputs.takeError());

    std::set<std::string> got, want;
    for (const OutputValue &out : *outputs)
      got.insert(out.name);
    for (const auto &kv : expected)
      want.insert(kv.first);
    EXPECT_EQ(got, want);

    for (const OutputValue &out : *outputs) {
      auto it = expected.find(out.name);
      if (it == expected.end())
        continue;
      const ref::Field &ref = it->second;
      const FieldValue &v = *out.value;
      SCOPED_TRACE("field " + out.name);
      EXPECT_EQ(v.isBool, ref.isBool);
      EXPECT_EQ(v.domain == Domain::scalar && !v.isPrefix, ref.isScalar);
      ASSERT_EQ(v.width, ref.width);
      ASSERT_EQ(v.data.size(), ref.data.size());
      for (size_t k = 0; k < ref.data.size(); ++k) {
        // Unspecified block-table columns are not compared.
        if (!ref.liveCols.empty() &&
            int64_t(k % ref.width) >= ref.liveCols[k / ref.width])
          continue;
        ASSERT_EQ(v.data[k], ref.data[k]) << "at flat index " << k;
      }
    }
  }

};

TEST_F(DeepInferV4, SpecParses) { ASSERT_TRUE(spec()); }

TEST_F(DeepInferV4, PromptMatchesReference) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch batch = ref::randomBatch(ref::PathKind::Prompt, seed);
    compare(batch, "prompt", ref::prompt(batch), seed);
    if (HasFatalFailure())
      return;
  }
}

TEST_F(DeepInferV4, PromptExpandedMatchesReference) {
  for (uint64_t seed = 0; seed < kSeeds / 4; ++seed) {
    ref::Batch batch = ref::randomBatch(ref::PathKind::Prompt, seed + 31337);
    compare(batch, "prompt_expanded", ref::promptExpanded(batch), seed);
    if (HasFatalFailure())
      return;
  }
}

TEST_F(DeepInferV4, DecodeMatchesReference) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch batch = ref::randomBatch(ref::PathKind::Decode, seed);
    compare(batch, "decode", ref::decode(batch, /*zos=*/false), seed);
    if (HasFatalFailure())
      return;
  }
}

TEST_F(DeepInferV4, DecodeZosMatchesReference) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch batch = ref::randomBatch(ref::PathKind::Decode, seed + 7919);
    ref::Fields expanded = ref::decode(batch, /*zos=*/true);
    compare(batch, "decode_zos_expanded", expanded, seed);
    if (HasFatalFailure())
      return;
    // decode_zos: the same fields without the expansions.
    ref::Fields plain = expanded;
    for (auto it = plain.begin(); it != plain.end();) {
      bool expansion = it->first == "kv_swa_index" ||
                       it->first.rfind("kv_ca_index.", 0) == 0;
      it = expansion ? plain.erase(it) : std::next(it);
    }
    ASSERT_LT(plain.size(), expanded.size());
    compare(batch, "decode_zos", plain, seed);
    if (HasFatalFailure())
      return;
  }
}

} // namespace
