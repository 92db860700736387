//===- ResidentTableTest.cpp - resident block tables on the CPU ----------===//
//
// The resident block table (runtime/ResidentTable.h, the generated API's
// ListTable): over hundreds of scheduler steps of deltas, the table equals
// the block tables rebuilt from scratch, and the generated decode reading
// it in place writes exactly what it writes from packed lists and what
// SPEC.md's hand-written reference gives. Bad deltas are refused by name
// and change nothing; bad tables are refused by name.
//
//===----------------------------------------------------------------------===//

#include "GeneratedInputs.h"
#include "StepStream.h"

#include <gtest/gtest.h>

#include <cstring>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;

namespace {

/// decode's buffers at `shape`'s sizes, every byte set to `fill`.
struct Outputs {
  gen::DecodeBuffers set;
  std::vector<std::vector<char>> storage;
};

/// Runs decode on `seqs`; returns the status, fills `out`.
gen::Status runDecode(const gen::Config &config, const gen::Sequences &seqs,
                      Outputs &out) {
  gen::Status st = gen::decode_shape(config, seqs, out.set);
  if (!st.ok)
    return st;
  out.storage = ref::allocateHost(out.set, gen::kDecodeOutputs, 0x5a);
  return gen::decode(config, seqs, out.set);
}

/// Output k's live values, bucket by bucket, as the reference lays them.
std::vector<char> liveValues(Outputs &out, int k) {
  const gen::Buffer &b = out.set.begin()[k];
  return ref::liveBytes(static_cast<const char *>(b.data), b, b,
                        gen::kDecodeOutputs[k].is_bool ? 1 : 4);
}

/// Every output of `out` against SPEC.md's reference (block_tables: the
/// live columns only).
void expectReference(const ref::Batch &batch, const Outputs &out) {
  ref::Fields want = ref::decode(batch, /*zos=*/false);
  gen::DecodeBuffers &set = const_cast<gen::DecodeBuffers &>(out.set);
  for (int k = 0; k < gen::DecodeBuffers::kCount; ++k) {
    const gen::Buffer &b = set.begin()[k];
    for (int32_t bucket = 0; bucket < b.buckets; ++bucket) {
      std::string name = gen::kDecodeOutputs[k].name;
      if (*gen::kDecodeOutputs[k].ratios)
        name += "." + std::to_string(b.ratios[bucket]);
      SCOPED_TRACE("output " + name);
      auto it = want.find(name);
      ASSERT_NE(it, want.end());
      const ref::Field &f = it->second;
      for (size_t e = 0; e < f.data.size(); ++e) {
        int64_t row = e / f.width, col = e % f.width;
        if (!f.liveCols.empty() && col >= f.liveCols[row])
          continue;
        int64_t at = bucket * b.bucket_stride + row * b.width + col;
        int64_t got = gen::kDecodeOutputs[k].is_bool
                          ? int64_t(static_cast<bool *>(b.data)[at])
                          : int64_t(static_cast<int32_t *>(b.data)[at]);
        ASSERT_EQ(got, f.data[e]) << "at element " << e;
      }
    }
  }
}

TEST(ResidentTable, StepStreamEqualsRebuiltTablesAndReference) {
  for (int64_t q : {1, 2}) {
    SCOPED_TRACE("q " + std::to_string(q));
    ref::StepStreamOptions opt;
    opt.numSeqs = 12;
    opt.q = q;
    opt.maxHistory = 1500;
    opt.finishChance = 0.05;
    opt.poolBlocks = 5000;
    opt.seed = uint64_t(q);
    ref::StepStream stream(ref::smallStreamConfig(), opt);
    ref::Table table("block_table", 40, 128, opt.poolBlocks);
    ref::Batch batch;
    std::vector<int32_t> rows;
    int64_t appended = 0, total = 0;
    ASSERT_EQ(stream.start(table, batch, rows, appended), "");
    for (int step = 0; step < 300; ++step) {
      if (step > 0) {
        ASSERT_EQ(stream.next(table, batch, rows, appended), "");
      }
      total += appended;
      SCOPED_TRACE("step " + std::to_string(step));
      // The table after every delta so far equals the tables rebuilt.
      for (size_t i = 0; i < rows.size(); ++i) {
        const std::vector<int64_t> &want = batch.sequences[i].blockTable;
        ASSERT_EQ(table.length(rows[i]), int32_t(want.size()));
        for (size_t c = 0; c < want.size(); ++c)
          ASSERT_EQ(table.row(rows[i])[c], want[c]) << "row " << rows[i];
      }
      ref::GeneratedInputs in(batch);
      Outputs packed, resident;
      gen::Status a = runDecode(in.config, in.seqs, packed);
      gen::Status b = runDecode(
          in.config, ref::withTable(in.seqs, table.cpuView(), rows), resident);
      ASSERT_TRUE(a.ok) << a.message;
      ASSERT_TRUE(b.ok) << b.message;
      EXPECT_TRUE(b.proven);
      for (int k = 0; k < gen::DecodeBuffers::kCount; ++k)
        ASSERT_EQ(liveValues(packed, k), liveValues(resident, k))
            << gen::kDecodeOutputs[k].name;
      if (step % 10 == 0)
        expectReference(batch, resident);
      if (HasFatalFailure())
        return;
    }
    EXPECT_GT(total, 300); // the stream did append
  }
}

TEST(ResidentTable, BadDeltasAreRefusedAndChangeNothing) {
  ref::Table table("block_table", 4, 3, 100);
  const int32_t ok[] = {1, 2}, negative[] = {5, -1}, one[] = {1}, big[] = {100},
                four[] = {1, 2, 3, 4};
  ASSERT_EQ(table.assign(1, ok, 2), "");
  auto same = [&] {
    EXPECT_EQ(table.length(1), 2);
    EXPECT_EQ(table.row(1)[0], 1);
    EXPECT_EQ(table.row(1)[1], 2);
    EXPECT_EQ(table.pendingValues(), 2);
  };
  EXPECT_EQ(table.assign(1, negative, 2),
            "'block_table': assign to row 1: value -1 (index 1 of the delta) "
            "is outside [0, 100)");
  same();
  EXPECT_EQ(table.append(1, big, 1),
            "'block_table': append to row 1: value 100 (index 0 of the "
            "delta) is outside [0, 100)");
  same();
  EXPECT_EQ(table.append(1, ok, 2),
            "'block_table': append to row 1: 4 values overflow the row's 3");
  same();
  EXPECT_EQ(table.assign(1, four, 4),
            "'block_table': assign to row 1: 4 values overflow the row's 3");
  same();
  EXPECT_EQ(table.append(4, ok, 1),
            "'block_table': append row 4: the table has 4 rows");
  EXPECT_EQ(table.truncate(1, 3),
            "'block_table': truncate row 1 to 3: the row holds 2 values");
  EXPECT_EQ(table.free(-1), "'block_table': free row -1: the table has 4 rows");
  same();
  // Truncate, then append: the device needs only the new values.
  ASSERT_EQ(table.truncate(1, 1), "");
  ASSERT_EQ(table.append(1, one, 1), "");
  EXPECT_EQ(table.length(1), 2);
  EXPECT_EQ(table.pendingValues(), 2); // still unsent since the assign
}

/// One valid decode batch and its table.
struct SmallBatch {
  ref::Batch batch;
  ref::Table table{"block_table", 8, 8, 64};
  std::vector<int32_t> rows{5, 2};
  SmallBatch() {
    batch.config = ref::smallStreamConfig();
    for (int i = 0; i < 2; ++i) {
      ref::Sequence s;
      s.seqlenQ = 1;
      s.seqlenK = 40 + i;
      s.stateId = i;
      s.blockTable = {int64_t(3 + i), 7, 9};
      s.tokenIds = {42};
      batch.sequences.push_back(s);
      std::vector<int32_t> ids(s.blockTable.begin(), s.blockTable.end());
      EXPECT_EQ(table.assign(rows[i], ids.data(), 3), "");
    }
  }
};

TEST(ResidentTable, BadTablesAreRefusedByName) {
  SmallBatch sb;
  ref::GeneratedInputs in(sb.batch);
  Outputs out;
  auto refusal = [&](gen::ListTable t, std::vector<int32_t> rows) {
    gen::Status st = runDecode(in.config, ref::withTable(in.seqs, t, rows), out);
    return st.ok ? std::string("ok") : st.message;
  };
  EXPECT_EQ(refusal(sb.table.cpuView(), sb.rows), "ok");
  EXPECT_EQ(refusal(sb.table.cpuView(), {5, 8}),
            "sequence 1: block_table_row = 8 is not a row of "
            "'block_table_table' (8 rows)");
  gen::ListTable t = sb.table.cpuView();
  t.bound = 0;
  EXPECT_EQ(refusal(t, sb.rows),
            "sequences: 'block_table_table' has bound 0: its values lie in "
            "[0, bound), so bound must exceed 0");
  t = sb.table.cpuView();
  std::vector<int32_t> lengths(8, 3);
  lengths[2] = 9;
  t.lengths = lengths.data();
  EXPECT_EQ(refusal(t, sb.rows),
            "sequence 1: row 2 of 'block_table_table' has length 9, outside "
            "[0, 8]");
  t = sb.table.cpuView();
  t.lengths = nullptr;
  EXPECT_EQ(refusal(t, sb.rows),
            "sequences: 'block_table_table' needs lengths, num_rows >= 0 and "
            "row_stride >= 0");
  // R3 on a table row: fewer ids than num_blocks.
  ASSERT_EQ(sb.table.truncate(5, 2), "");
  EXPECT_EQ(refusal(sb.table.cpuView(), sb.rows),
            "sequence 0: R3: block_table has at least num_blocks entries "
            "(len(block_table) = 2, num_blocks = 3)");
  const int32_t nine = 9;
  ASSERT_EQ(sb.table.append(5, &nine, 1), "");
  // A device-only table on the CPU path.
  t = sb.table.cpuView();
  int32_t deviceStandIn[64] = {};
  t.host = nullptr;
  t.device = deviceStandIn;
  EXPECT_EQ(refusal(t, sb.rows),
            "'block_table_table': a CPU path reads the host rows, and 'host' "
            "is null");
}

// Issue 34: the table's values are what the spec declares, and the rows
// a step reads are checked where the engine owns them.
TEST(ResidentTable, FreeRowsAndTheSpecsMinimum) {
  ref::Table table("block_table", 4, 3, 100);
  const int32_t ok[] = {1, 2};
  EXPECT_EQ(table.free(2), "'block_table': free row 2: the row is free "
                           "(never assigned, or freed)");
  EXPECT_EQ(table.append(2, ok, 1), "'block_table': append row 2: the row "
                                    "is free (never assigned, or freed)");
  EXPECT_EQ(table.truncate(2, 0), "'block_table': truncate row 2: the row "
                                  "is free (never assigned, or freed)");
  ASSERT_EQ(table.assign(2, ok, 2), "");
  EXPECT_TRUE(table.isLive(2));
  ASSERT_EQ(table.free(2), "");
  EXPECT_FALSE(table.isLive(2));
  EXPECT_EQ(table.free(2), "'block_table': free row 2: the row is free "
                           "(never assigned, or freed)");
  // The minimum is the spec's (block_table: min = 0), not an argument: -2
  // was taken by a table built with min -5, and decode() output it.
  const int32_t below[] = {-2};
  EXPECT_EQ(table.assign(1, below, 1),
            "'block_table': assign to row 1: value -2 (index 0 of the "
            "delta) is outside [0, 100)");
  // A name that is no resident list of the spec refuses every delta.
  ref::Table other("token_ids", 4, 3, 100);
  EXPECT_EQ(other.assign(0, ok, 2), "'token_ids': assign: no resident list "
                                    "input of the spec has this name");
}

TEST(ResidentTable, EngineOwnedValuesAreCheckedWhereRead) {
  SmallBatch sb;
  ref::GeneratedInputs in(sb.batch);
  Outputs out;
  // The engine's own table (no ResidentTable): an id past the bound
  // became slot 1,599,984 of a 4,096-block pool.
  std::vector<int32_t> rows(8 * 8, 0), lengths(8, 0);
  for (int i = 0; i < 2; ++i) {
    lengths[size_t(sb.rows[size_t(i)])] = 3;
    for (int k = 0; k < 3; ++k)
      rows[size_t(sb.rows[size_t(i)]) * 8 + size_t(k)] =
          int32_t(sb.batch.sequences[size_t(i)].blockTable[size_t(k)]);
  }
  gen::ListTable t;
  t.host = rows.data();
  t.lengths = lengths.data();
  t.row_stride = 8;
  t.num_rows = 8;
  t.bound = 64;
  EXPECT_FALSE(t.values_checked); // an engine's own table
  EXPECT_TRUE(sb.table.cpuView().values_checked);
  gen::Status st = runDecode(in.config, ref::withTable(in.seqs, t, sb.rows), out);
  ASSERT_TRUE(st.ok) << st.message;
  rows[size_t(sb.rows[1]) * 8 + 2] = 99999;
  st = runDecode(in.config, ref::withTable(in.seqs, t, sb.rows), out);
  EXPECT_EQ(st.message, "sequence 1: block_table[2] = 99999 (row 2 of "
                        "'block_table_table') is outside [0, bound) = [0, "
                        "64) (R3)");
  rows[size_t(sb.rows[1]) * 8 + 2] = -1;
  st = runDecode(in.config, ref::withTable(in.seqs, t, sb.rows), out);
  EXPECT_EQ(st.message, "sequence 1: block_table[2] = -1 (row 2 of "
                        "'block_table_table') is outside [0, bound) = [0, "
                        "64) (R3)");
}

TEST(ResidentTable, ProofTakesTheDeclaredBound) {
  SmallBatch sb;
  ref::GeneratedInputs in(sb.batch);
  Outputs out;
  gen::ListTable t = sb.table.cpuView();
  gen::Status st = runDecode(in.config, ref::withTable(in.seqs, t, sb.rows), out);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_TRUE(st.proven);
  // A pool so large that id * bc could leave int32: the proof fails and
  // the checked dry run finds every value in range (the ids are small).
  t.bound = INT32_MAX;
  st = runDecode(in.config, ref::withTable(in.seqs, t, sb.rows), out);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_FALSE(st.proven);
  // Without host rows, that dry run cannot run: refused by name.
  t.host = nullptr;
  int32_t deviceStandIn[64] = {};
  t.device = deviceStandIn;
  st = runDecode(in.config, ref::withTable(in.seqs, t, sb.rows), out);
  EXPECT_EQ(st.message,
            "'block_table_table': the batch's int32 proof failed and the "
            "checked dry run reads the rows on the host: give 'host' too");
}

} // namespace
