//===- GeneratedCpuTest.cpp - generated C++ vs. the reference evaluator ---===//
//
// The code imeta-gen emits for specs/deepinfer_v4.mlir, compiled into this
// test, must equal the evaluator on every field of every path, on seeded
// random batches; it must reject what the evaluator rejects, and leave the
// caller's buffers untouched when it does.
//
//===----------------------------------------------------------------------===//

#include "RandomBatch.h"
#include "RandomBatchJson.h"

#include "GeneratedInputs.h"
#include "V4Spec.h"

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "lib/Eval/Batch.h"
#include "lib/Eval/Evaluator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;

namespace {

constexpr int kSeeds = 1000;
constexpr int32_t kPoison = -7777777;

/// Buffers sized by the path's _shape call (plus `slack` rows), poisoned.
template <typename Buffers> struct OwnedBuffers {
  Buffers set;
  std::vector<std::vector<int32_t>> ints;
  std::vector<std::unique_ptr<bool[]>> bools;

  void allocate(const gen::OutputInfo *info, int64_t slack) {
    gen::Buffer *bufs = set.begin();
    for (int k = 0; k < Buffers::kCount; ++k) {
      gen::Buffer &b = bufs[k];
      int64_t rows = 0;
      for (int r = 0; r < b.buckets; ++r)
        rows = std::max(rows, b.rows[r]);
      rows += slack;
      int64_t stride = rows * std::max<int64_t>(b.width, 1);
      int32_t buckets = std::max(b.buckets, 1);
      b.capacity = rows;
      b.bucket_stride = stride;
      b.max_buckets = buckets;
      if (info[k].is_bool) {
        bools.emplace_back(new bool[stride * buckets + 1]);
        std::fill_n(bools.back().get(), stride * buckets + 1, true);
        b.data = bools.back().get();
      } else {
        ints.emplace_back(stride * buckets + 1, kPoison);
        b.data = ints.back().data();
      }
    }
  }
};

class GeneratedCpu : public ::testing::Test {
protected:
  SpecOp spec() { return test::v4Spec(); }

  /// Runs the generated `run` (shape, then fill in `mode`) and the
  /// evaluator on the same batch; compares outputs bucket by bucket.
  /// Counts the batches whose range proof held in `provenRuns`.
  template <typename Buffers, typename Shape, typename Fill>
  void compare(const ref::Batch &batch, llvm::StringRef pathName,
               const gen::OutputInfo *info, Shape shape, Fill fill,
               uint64_t seed, gen::FillMode mode = gen::FillMode::kAuto) {
    SCOPED_TRACE(llvm::formatv("seed {0}, path {1}, {2}", seed, pathName,
                               mode == gen::FillMode::kAuto ? "auto"
                                                            : "checked")
                     .str());
    ref::GeneratedInputs in(batch);
    OwnedBuffers<Buffers> out;
    gen::Status st = shape(in.config, in.seqs, out.set);
    ASSERT_TRUE(st.ok) << st.message;
    out.allocate(info, seed % 3);
    st = fill(in.config, in.seqs, out.set, mode);
    ASSERT_TRUE(st.ok) << st.message;
    if (mode == gen::FillMode::kChecked) {
      ASSERT_FALSE(st.proven);
    }
    provenRuns += st.proven;

    llvm::Expected<Batch> parsed = parseBatch(spec(), ref::toJson(batch));
    ASSERT_TRUE(bool(parsed));
    Evaluator ev(spec(), *parsed);
    PathOp path = test::v4Path(pathName);
    ASSERT_FALSE(bool(ev.checkPath(path)));
    auto outputs = ev.evaluatePath(path);
    ASSERT_TRUE(bool(outputs)) << llvm::toString(outputs.takeError());

    std::map<std::string, const FieldValue *> want;
    for (const OutputValue &o : *outputs)
      want[o.name] = o.value;
    size_t seen = 0;
    gen::Buffer *bufs = out.set.begin();
    for (int k = 0; k < Buffers::kCount; ++k) {
      const gen::Buffer &b = bufs[k];
      for (int bucket = 0; bucket < b.buckets; ++bucket) {
        std::string name = info[k].name;
        if (*info[k].ratios)
          name += "." + std::to_string(b.ratios[bucket]);
        SCOPED_TRACE("output " + name);
        auto it = want.find(name);
        ASSERT_NE(it, want.end());
        ++seen;
        const FieldValue &v = *it->second;
        ASSERT_EQ(int64_t(v.numPoints()), b.rows[bucket]);
        ASSERT_EQ(int64_t(v.width), b.cols[bucket]);
        for (size_t e = 0; e < v.data.size(); ++e) {
          int64_t row = v.width ? e / v.width : 0, col = v.width ? e % v.width : 0;
          int64_t at = bucket * b.bucket_stride + row * b.width + col;
          int64_t got = info[k].is_bool
                            ? int64_t(static_cast<bool *>(b.data)[at])
                            : int64_t(static_cast<int32_t *>(b.data)[at]);
          // Unspecified columns (the evaluator's -1) are not written.
          if (v.data[e] == -1 && got == kPoison)
            continue;
          ASSERT_EQ(got, v.data[e]) << "at element " << e;
        }
      }
    }
    EXPECT_EQ(seen, want.size());
  }

  /// Every seed in auto mode, every fourth also checked (dry run, then the
  /// checked instantiation); then the share of batches proven.
  template <typename Buffers, typename Shape, typename Fill>
  void compareSeeds(ref::PathKind kind, uint64_t seedBase, int seeds,
                    llvm::StringRef pathName, const gen::OutputInfo *info,
                    Shape shape, Fill fill) {
    provenRuns = 0;
    for (int seed = 0; seed < seeds; ++seed) {
      ref::Batch batch = ref::randomBatch(kind, seedBase + seed);
      compare<Buffers>(batch, pathName, info, shape, fill, seed);
      if (seed % 4 == 0)
        compare<Buffers>(batch, pathName, info, shape, fill, seed,
                         gen::FillMode::kChecked);
      if (HasFatalFailure())
        return;
    }
    // The random batches keep their values far from the i32 limits: the
    // proof must hold on (nearly) all of them.
    EXPECT_GE(provenRuns, seeds * 95 / 100);
  }

  int provenRuns = 0;

};

TEST_F(GeneratedCpu, PromptEqualsEvaluator) {
  compareSeeds<gen::PromptBuffers>(ref::PathKind::Prompt, 0, kSeeds, "prompt",
                                   gen::kPromptOutputs, gen::prompt_shape,
                                   gen::prompt);
}

TEST_F(GeneratedCpu, PromptExpandedEqualsEvaluator) {
  compareSeeds<gen::PromptExpandedBuffers>(
      ref::PathKind::Prompt, 31337, kSeeds / 4, "prompt_expanded",
      gen::kPromptExpandedOutputs, gen::prompt_expanded_shape,
      gen::prompt_expanded);
}

TEST_F(GeneratedCpu, DecodeEqualsEvaluator) {
  compareSeeds<gen::DecodeBuffers>(ref::PathKind::Decode, 0, kSeeds, "decode",
                                   gen::kDecodeOutputs, gen::decode_shape,
                                   gen::decode);
}

TEST_F(GeneratedCpu, DecodeZosEqualsEvaluator) {
  compareSeeds<gen::DecodeZosBuffers>(
      ref::PathKind::Decode, ref::kGpuSeedBase, kSeeds / 4, "decode_zos",
      gen::kDecodeZosOutputs, gen::decode_zos_shape, gen::decode_zos);
}

TEST_F(GeneratedCpu, DecodeZosExpandedEqualsEvaluator) {
  compareSeeds<gen::DecodeZosExpandedBuffers>(
      ref::PathKind::Decode, ref::kGpuSeedBase, kSeeds, "decode_zos_expanded",
      gen::kDecodeZosExpandedOutputs, gen::decode_zos_expanded_shape,
      gen::decode_zos_expanded);
}

/// Every buffer still holds only the poison: nothing was written.
template <typename Buffers>
bool untouched(OwnedBuffers<Buffers> &out, const gen::OutputInfo *info) {
  gen::Buffer *bufs = out.set.begin();
  for (int k = 0; k < Buffers::kCount; ++k) {
    int64_t n = bufs[k].bucket_stride * bufs[k].max_buckets;
    for (int64_t e = 0; e < n; ++e) {
      bool poisoned =
          info[k].is_bool ? static_cast<bool *>(bufs[k].data)[e] == true
                          : static_cast<int32_t *>(bufs[k].data)[e] == kPoison;
      if (!poisoned)
        return false;
    }
  }
  return true;
}

// A buffer one row short, a broken rule, a negative input, a null input:
// each is an error naming the field, rule, sequence or input, and nothing
// is written anywhere.
TEST_F(GeneratedCpu, ErrorsLeaveBuffersUntouched) {
  ref::Batch batch = ref::randomBatch(ref::PathKind::Decode, 5);
  {
    ref::GeneratedInputs in(batch);
    OwnedBuffers<gen::DecodeBuffers> out;
    ASSERT_TRUE(gen::decode_shape(in.config, in.seqs, out.set).ok);
    out.allocate(gen::kDecodeOutputs, 0);
    out.set.positions.capacity -= 1;
    gen::Status st = gen::decode(in.config, in.seqs, out.set);
    EXPECT_FALSE(st.ok);
    EXPECT_NE(st.message.find("output 'positions': needs"), std::string::npos)
        << st.message;
    EXPECT_TRUE(untouched(out, gen::kDecodeOutputs));
  }
  {
    ref::GeneratedInputs in(batch);
    OwnedBuffers<gen::DecodeBuffers> out;
    ASSERT_TRUE(gen::decode_shape(in.config, in.seqs, out.set).ok);
    out.allocate(gen::kDecodeOutputs, 0);
    in.q[0] = in.k[0] + 1; // seqlen_q > seqlen_k
    gen::Status st = gen::decode(in.config, in.seqs, out.set);
    EXPECT_FALSE(st.ok);
    EXPECT_EQ(st.message.rfind("sequence 0: R3: seqlen_q <= seqlen_k", 0), 0u)
        << "got: " << st.message;
    EXPECT_TRUE(untouched(out, gen::kDecodeOutputs));
  }
  {
    ref::GeneratedInputs in(batch);
    OwnedBuffers<gen::DecodeBuffers> out;
    ASSERT_TRUE(gen::decode_shape(in.config, in.seqs, out.set).ok);
    out.allocate(gen::kDecodeOutputs, 0);
    in.state[0] = -3;
    gen::Status st = gen::decode(in.config, in.seqs, out.set);
    EXPECT_EQ(st.message, "sequence 0: state_id = -3 breaks state_id >= 0 (R3)");
    EXPECT_TRUE(untouched(out, gen::kDecodeOutputs));
  }
  {
    // A null pointer among the inputs: each named on its own (a list's
    // offsets, then its values), with what the input needs.
    ref::GeneratedInputs in(batch);
    OwnedBuffers<gen::DecodeBuffers> out;
    ASSERT_TRUE(gen::decode_shape(in.config, in.seqs, out.set).ok);
    out.allocate(gen::kDecodeOutputs, 0);
    gen::Sequences seqs = in.seqs;
    seqs.token_ids_offsets = nullptr;
    EXPECT_EQ(gen::decode(in.config, seqs, out.set).message,
              "sequences: 'token_ids_offsets' is null: list input "
              "'token_ids' needs num_seqs + 1 offsets");
    seqs = in.seqs;
    seqs.token_ids = nullptr;
    EXPECT_EQ(gen::decode(in.config, seqs, out.set).message,
              "sequences: 'token_ids' is null, but its offsets hold " +
                  std::to_string(in.seqs.token_ids_offsets[seqs.num_seqs]) +
                  " values");
    seqs = in.seqs;
    seqs.seqlen_k = nullptr;
    EXPECT_EQ(gen::decode(in.config, seqs, out.set).message,
              "sequences: 'seqlen_k' is null: input 'seqlen_k' needs "
              "num_seqs values (R3)");
    EXPECT_TRUE(untouched(out, gen::kDecodeOutputs));
  }
  {
    // A negative block-table entry of the last sequence: found by the slow
    // path of the one-pass scan, named by sequence and index.
    ref::GeneratedInputs in(batch);
    OwnedBuffers<gen::DecodeBuffers> out;
    ASSERT_TRUE(gen::decode_shape(in.config, in.seqs, out.set).ok);
    out.allocate(gen::kDecodeOutputs, 0);
    const size_t last = batch.sequences.size() - 1;
    ASSERT_FALSE(batch.sequences[last].blockTable.empty());
    in.blockTable.back() = -5;
    gen::Status st = gen::decode(in.config, in.seqs, out.set);
    EXPECT_EQ(st.message,
              "sequence " + std::to_string(last) + ": block_table[" +
                  std::to_string(batch.sequences[last].blockTable.size() - 1) +
                  "] = -5 breaks block_table >= 0 (R3)");
    EXPECT_TRUE(untouched(out, gen::kDecodeOutputs));
  }
  {
    // Two rules broken in two sequences: sequence 0 breaks a later rule,
    // sequence 1 the first. The host stage checks both in one pass over
    // the sequences, which stops at sequence 0; the error is still the
    // evaluator's (rule by rule, then sequence by sequence): the first
    // rule, at sequence 1.
    ASSERT_GE(batch.sequences.size(), 2u);
    ref::GeneratedInputs in(batch);
    OwnedBuffers<gen::DecodeZosBuffers> out;
    ASSERT_TRUE(gen::decode_zos_shape(in.config, in.seqs, out.set).ok);
    out.allocate(gen::kDecodeZosOutputs, 0);
    in.k[0] = int32_t(batch.config.maxModelLen + 1); // seqlen_k <= max_model_len
    in.q[1] = in.k[1] + 1;                           // seqlen_q <= seqlen_k
    gen::Status st = gen::decode_zos(in.config, in.seqs, out.set);
    EXPECT_EQ(st.message, "sequence 1: R3: seqlen_q <= seqlen_k (q = " +
                              std::to_string(in.q[1]) + ", k = " +
                              std::to_string(in.k[1]) + ")");
    EXPECT_TRUE(untouched(out, gen::kDecodeZosOutputs));
  }
  {
    // state_id * swa_block_size leaves i32 in a fill formula: the range
    // proof fails, the checked dry run finds the overflow before any store.
    ref::GeneratedInputs in(batch);
    OwnedBuffers<gen::DecodeBuffers> out;
    ASSERT_TRUE(gen::decode_shape(in.config, in.seqs, out.set).ok);
    out.allocate(gen::kDecodeOutputs, 0);
    in.state[0] = INT32_MAX / 2;
    gen::Status st = gen::decode(in.config, in.seqs, out.set);
    EXPECT_FALSE(st.ok);
    EXPECT_EQ(st.message.rfind("field 'slot_mapping_store_swa': sequence 0, "
                               "row 0: i32 overflow",
                               0),
              0u)
        << "got: " << st.message;
    EXPECT_TRUE(untouched(out, gen::kDecodeOutputs));
  }
}

// The batches of the GPU test's graph replay (capture at 1024 rows, then
// 20 smaller ones): the CPU values it compares against are the evaluator's.
TEST_F(GeneratedCpu, GraphReplayBatchesEqualEvaluator) {
  std::vector<ref::Batch> batches = ref::graphReplayBatches();
  ASSERT_EQ(batches.size(), 21u);
  for (size_t k = 0; k < batches.size(); ++k) {
    compare<gen::DecodeZosExpandedBuffers>(
        batches[k], "decode_zos_expanded", gen::kDecodeZosExpandedOutputs,
        gen::decode_zos_expanded_shape, gen::decode_zos_expanded, k);
    if (HasFatalFailure())
      return;
  }
}

} // namespace
