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

#include <cstring>
#include <deque>
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
  EXPECT_EQ(refusal(c), "driver: input 'token_ids': offset 1 is 9; offsets "
                        "rise from 0 to the count of values (5)");
  TinyDecode d;
  d.offsets.erase("block_table");
  EXPECT_EQ(refusal(d), "driver: input 'block_table': num_offsets is 0; a "
                        "list has num_seqs + 1 = 2 offsets");
  TinyDecode e;
  e.config["block_size"] = {};
  EXPECT_EQ(refusal(e), "config: 'block_size' needs one value, has 0");
}

/// The entry itself with raw records: what a caller in C could pass.
struct RawCall {
  TinyDecode batch;
  const char *json = nullptr, *error = nullptr;
  int rc = 0;
  std::vector<imeta_value> configs, inputs;
  std::vector<std::vector<int64_t>> store;

  RawCall() {
    for (const auto &[name, v] : batch.config)
      configs.push_back(value(name, v, nullptr, 0));
    for (const auto &[name, v] : batch.inputs) {
      auto off = batch.offsets.find(name);
      inputs.push_back(off == batch.offsets.end()
                           ? value(name, v, nullptr, 0)
                           : value(name, v, keep(off->second),
                                   int64_t(off->second.size())));
    }
  }
  imeta_value value(const std::string &name, const std::vector<int64_t> &v,
                    const int64_t *offsets, int64_t numOffsets) {
    names.push_back(name);
    return {names.back().c_str(), keep(v), int64_t(v.size()), offsets,
            numOffsets};
  }
  const int64_t *keep(const std::vector<int64_t> &v) {
    store.push_back(v);
    store.back().push_back(0); // never empty: data() is not null
    return store.back().data();
  }
  imeta_value &input(const char *name) {
    for (imeta_value &v : inputs)
      if (!std::strcmp(v.name, name))
        return v;
    ADD_FAILURE() << "no input " << name;
    return inputs.front();
  }
  std::string run(const char *path = "decode", int32_t numSeqs = 1) {
    rc = imeta_driver_run(path, numSeqs, configs.data(), int(configs.size()),
                          inputs.data(), int(inputs.size()), 0, 0, &json,
                          &error);
    EXPECT_NE(rc, 0) << "accepted: " << (json ? json : "");
    return error ? error : "(null error)";
  }
  std::deque<std::string> names;
};

TEST(DriverAbi, RawCallRunsAsTheArgsDo) {
  RawCall call;
  int rc = imeta_driver_run("decode", 1, call.configs.data(),
                            int(call.configs.size()), call.inputs.data(),
                            int(call.inputs.size()), 0, 0, &call.json,
                            &call.error);
  ASSERT_EQ(rc, 0) << call.error;
  EXPECT_NE(std::string(call.json).find("\"positions\": [4]"),
            std::string::npos);
}

// A hostile caller's pointers and counts: each refused before it is used
// (under the sanitizers these crashed or threw out of extern "C").
TEST(DriverAbi, NullPointersAreRefused) {
  RawCall call;
  EXPECT_EQ(imeta_driver_run("decode", 1, call.configs.data(),
                             int(call.configs.size()), call.inputs.data(),
                             int(call.inputs.size()), 0, 0, nullptr,
                             &call.error),
            2);
  EXPECT_EQ(imeta_driver_run("decode", 1, call.configs.data(),
                             int(call.configs.size()), call.inputs.data(),
                             int(call.inputs.size()), 0, 0, &call.json,
                             nullptr),
            2);
  EXPECT_EQ(RawCall().run(nullptr), "driver: a null path");
  RawCall a;
  a.inputs.front().name = nullptr;
  EXPECT_EQ(a.run(), "driver: input 0 has a null name");
  RawCall b;
  b.input("seqlen_k").data = nullptr;
  EXPECT_EQ(b.run(), "driver: input 'seqlen_k': null data with count 1");
  RawCall c;
  c.input("block_table").offsets = nullptr;
  EXPECT_EQ(c.run(), "driver: input 'block_table': null offsets");
  RawCall d;
  int rc = imeta_driver_run("decode", 1, nullptr, 3, d.inputs.data(),
                            int(d.inputs.size()), 0, 0, &d.json, &d.error);
  EXPECT_EQ(rc, 1);
  EXPECT_STREQ(d.error,
               "driver: a null config or inputs array with a count above 0");
}

TEST(DriverAbi, LyingCountsAreRefusedBeforeAnyAllocation) {
  for (int64_t count : {int64_t(-2), int64_t(-1), INT64_MAX,
                        int64_t(1) << 40}) {
    RawCall a;
    a.input("seqlen_q").count = count;
    EXPECT_EQ(a.run(), "driver: input 'seqlen_q': count " +
                           std::to_string(count) + " is outside [0, " +
                           std::to_string(int64_t(1) << 26) + "]");
  }
  // num_seqs = INT32_MAX: offsets[num_seqs] was read before the counts.
  RawCall b;
  EXPECT_EQ(b.run("decode", INT32_MAX),
            "driver: input 'block_table': num_offsets is 2; a list has "
            "num_seqs + 1 = 2147483648 offsets");
  EXPECT_EQ(RawCall().run("decode", -1),
            "driver: num_seqs is -1; a batch has 0 sequences or more");
  RawCall c;
  c.input("token_ids").num_offsets = 1;
  EXPECT_EQ(c.run(), "driver: input 'token_ids': num_offsets is 1; a list "
                     "has num_seqs + 1 = 2 offsets");
}

TEST(DriverAbi, UnknownAndRepeatedNamesAreRefused) {
  RawCall a;
  a.inputs.front().name = "seqlen_qq";
  EXPECT_EQ(a.run(), "driver: unknown input 'seqlen_qq' (not one of the "
                     "spec's)");
  RawCall b;
  b.configs.push_back(b.configs.front());
  EXPECT_EQ(b.run(), "driver: config '" + std::string(b.configs.front().name) +
                         "' given twice");
  RawCall c;
  c.configs.front().name = "seqlen_q"; // an input's name, as a config
  EXPECT_EQ(c.run(), "driver: unknown config 'seqlen_q' (not one of the "
                     "spec's)");
}

} // namespace
