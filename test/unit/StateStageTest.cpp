//===- StateStageTest.cpp - request state gathered by the stage vs the host ===//
//
// test/gpu/state_decode.mlir's GPU path reads request state in place. Its
// generated CPU routine gathers the state at each sequence's slot on the
// host; a staged run (`decode_staged`) gathers it in the path's sequence
// stage, one lane, the code a device step's kernel runs
// (docs/device-step.md). On random slotted batches both write the same
// values; on the same batches broken in five ways (a slot past the state,
// a value below its minimum, a drafts row of the wrong width, two rules)
// both refuse with the same words; the block table given as an engine's
// table (rows a stride apart with their lengths) reads as the packed rows
// do. The GPU side of the same batches:
// test/gpu/StateStepGpuTest.cu.
//
//===----------------------------------------------------------------------===//

#include "StateBatch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace imeta::statebatch;

namespace {

/// Output buffers of `rows` rows each, filled with 0x5a.
struct HostOutputs {
  gen::DecodeBuffers b;
  std::vector<std::vector<int32_t>> data;
  explicit HostOutputs(int64_t rows) {
    for (int k = 0; k < gen::DecodeBuffers::kCount; ++k) {
      data.emplace_back(size_t(rows), 0x5a5a5a5a);
      gen::Buffer &x = b.begin()[k];
      x.data = data.back().data();
      x.capacity = rows;
      x.bucket_stride = rows;
      x.width = 1;
    }
  }
};

TEST(StateStage, GatheredByTheStageAsByTheHost) {
  std::mt19937_64 rng(20261204);
  int refused = 0;
  for (int seed = 0; seed < 400; ++seed) {
    Batch good = randomBatch(rng);
    for (Batch b : {good, broken(good, seed % 5, rng)}) {
      HostOutputs host(256), staged(256);
      gen::Status a = gen::decode(b.config, hostSequences(b), host.b);
      gen::Status s =
          gen::decode_staged(b.config, hostSequences(b), staged.b, true);
      ASSERT_EQ(a.ok, s.ok) << "seed " << seed << ": host '" << a.message
                            << "', staged '" << s.message << "'";
      if (!a.ok) {
        EXPECT_EQ(a.message, s.message) << "seed " << seed;
        ++refused;
        continue;
      }
      for (int k = 0; k < gen::DecodeBuffers::kCount; ++k)
        EXPECT_EQ(host.data[size_t(k)], staged.data[size_t(k)])
            << "seed " << seed << ": output " << gen::kDecodeOutputs[k].name;
    }
  }
  // Every kind of break refused (a longer table can absorb none of them).
  EXPECT_GT(refused, 300);
}

/// The block table given as an engine's table (rows a stride apart, a
/// length each) instead of packed rows: the host and the stage read the
/// same rows, so every output and every refusal is the packed form's; a
/// row longer than its table's stride is refused by both in one message.
TEST(StateStage, TableFormReadsAsPackedRows) {
  std::mt19937_64 rng(20261205);
  int refused = 0, equal = 0;
  for (int seed = 0; seed < 300; ++seed) {
    Batch good = randomBatch(rng);
    for (Batch b : {good, broken(good, seed % 5, rng)}) {
      Table t(b, seed % 3);
      gen::Sequences packed = hostSequences(b);
      gen::Sequences table =
          withTable(packed, t.rows.data(), t.lengths.data(), t.stride);
      HostOutputs want(256), host(256), staged(256);
      gen::Status w = gen::decode(b.config, packed, want.b);
      gen::Status a = gen::decode(b.config, table, host.b);
      gen::Status s = gen::decode_staged(b.config, table, staged.b, true);
      ASSERT_EQ(w.ok, a.ok) << "seed " << seed << ": " << w.message << " / "
                            << a.message;
      ASSERT_EQ(a.ok, s.ok) << "seed " << seed << ": " << a.message << " / "
                            << s.message;
      if (!w.ok) {
        EXPECT_EQ(w.message, a.message) << "seed " << seed;
        EXPECT_EQ(w.message, s.message) << "seed " << seed;
        ++refused;
        continue;
      }
      for (int k = 0; k < gen::DecodeBuffers::kCount; ++k) {
        EXPECT_EQ(want.data[size_t(k)], host.data[size_t(k)])
            << "seed " << seed << ": output " << gen::kDecodeOutputs[k].name;
        EXPECT_EQ(want.data[size_t(k)], staged.data[size_t(k)])
            << "seed " << seed << ": output " << gen::kDecodeOutputs[k].name;
      }
      ++equal;
    }
  }
  EXPECT_GT(equal, 250);
  EXPECT_GT(refused, 200);
  // A row that says it holds more than the table's stride.
  Batch b = randomBatch(rng);
  Table t(b);
  t.lengths.back() = int32_t(t.stride + 1);
  gen::Sequences table =
      withTable(hostSequences(b), t.rows.data(), t.lengths.data(), t.stride);
  HostOutputs host(256), staged(256);
  gen::Status a = gen::decode(b.config, table, host.b);
  gen::Status s = gen::decode_staged(b.config, table, staged.b, true);
  const std::string want = "state 'table' slot " +
                           std::to_string(b.slots() - 1) + ": has " +
                           std::to_string(t.stride + 1) +
                           " entries, outside its table's [0, " +
                           std::to_string(t.stride) + "]";
  EXPECT_EQ(a.message, want);
  EXPECT_EQ(s.message, want);
}

} // namespace
