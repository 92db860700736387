//===- DriverAbiTest.cpp - what the generated driver refuses at its ABI ---===//
//
// The driver's C ABI (runtime/DriverAbi.h) takes int64 values and counts
// from any caller. What the generated code cannot take is an error naming
// the input, never a value narrowed or an array read past its end: a value
// outside int32, a per-sequence input of another count, list offsets that
// do not end at the values' count, a config parameter without one value.
//
//===----------------------------------------------------------------------===//

#include "runtime/DriverArgs.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace {

/// One decode sequence (q 1, k 5, two blocks of 4) as named values; a test
/// changes one of them before running.
struct TinyDecode {
  std::map<std::string, std::vector<int64_t>> config = {
      {"block_size", {4}},     {"window_size", {2}},
      {"swa_block_size", {4}}, {"max_model_len", {64}},
      {"max_num_blocks", {4}}, {"force_load_balance", {0}},
      {"dense_ratios", {1}},   {"sparse_ratios", {}}};
  std::map<std::string, std::vector<int64_t>> inputs = {
      {"seqlen_q", {1}},        {"seqlen_k", {5}},
      {"state_id", {0}},        {"is_placeholder", {0}},
      {"swa_valid_start", {0}}, {"block_table", {3, 7}},
      {"token_ids", {1, 2, 3, 4, 5}}, {"draft_tokens", {}}};
  std::map<std::string, std::vector<int64_t>> offsets = {
      {"block_table", {0, 2}}, {"token_ids", {0, 5}}, {"draft_tokens", {0, 0}}};

  /// Runs path decode; the driver's return code, `out` its text.
  int run(std::string &out) const {
    imeta::runtime::DriverArgs args;
    for (const auto &[name, v] : config)
      args.config(name, v);
    for (const auto &[name, v] : inputs) {
      auto off = offsets.find(name);
      args.input(name, v, off == offsets.end() ? std::vector<int64_t>{}
                                               : off->second);
    }
    return args.run(imeta_driver_run, "decode", 1, /*gpu=*/0, out);
  }
};

std::string refusal(const TinyDecode &batch) {
  std::string out;
  EXPECT_NE(batch.run(out), 0) << "accepted: " << out;
  return out;
}

TEST(DriverAbi, TheTinyBatchRuns) {
  TinyDecode batch;
  std::string out;
  ASSERT_EQ(batch.run(out), 0) << out;
  EXPECT_NE(out.find("\"positions\": [4]"), std::string::npos) << out;
}

TEST(DriverAbi, ValuesOutsideInt32AreRefusedNotNarrowed) {
  TinyDecode a;
  a.inputs["block_table"][1] = (int64_t(1) << 32) + 7; // 7 once narrowed
  EXPECT_EQ(refusal(a),
            "sequence 0: 'block_table'[1] must be an int32 integer (R3)");
  TinyDecode b;
  b.inputs["seqlen_k"][0] = (int64_t(1) << 32) + 5;
  EXPECT_EQ(refusal(b), "sequence 0: 'seqlen_k' must be an int32 integer (R3)");
  TinyDecode c;
  c.config["max_model_len"][0] = INT64_MIN;
  EXPECT_EQ(refusal(c), "config: 'max_model_len' must be an int32 integer (R1)");
  TinyDecode d;
  d.config["dense_ratios"][0] = (int64_t(1) << 32) + 1;
  EXPECT_EQ(refusal(d), "config: 'dense_ratios' must be a list of distinct "
                        "integers >= 1 (R1)");
}

TEST(DriverAbi, CountsThatDoNotMatchAreRefused) {
  TinyDecode a;
  a.inputs["seqlen_q"] = {1, 1};
  EXPECT_EQ(refusal(a), "'seqlen_q': 2 values for 1 sequences");
  TinyDecode b;
  b.inputs["is_placeholder"] = {};
  EXPECT_EQ(refusal(b), "'is_placeholder': 0 values for 1 sequences");
  TinyDecode c;
  c.offsets["token_ids"] = {0, 9}; // nine values claimed, five given
  EXPECT_EQ(refusal(c), "'token_ids': offsets must end at its 5 values");
  TinyDecode d;
  d.offsets.erase("block_table");
  EXPECT_EQ(refusal(d), "'block_table': offsets must end at its 2 values");
  TinyDecode e;
  e.config["block_size"] = {};
  EXPECT_EQ(refusal(e), "config: 'block_size' needs one value, has 0");
}

} // namespace
