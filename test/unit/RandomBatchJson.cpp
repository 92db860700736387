//===- RandomBatchJson.cpp - a reference batch as a batch file ------------===//

#include "RandomBatchJson.h"

using namespace imeta::ref;

namespace {
llvm::json::Array list(const std::vector<int64_t> &v) {
  return llvm::json::Array(v);
}

llvm::json::Object configJson(const Config &c) {
  llvm::json::Object config{{"block_size", c.blockSize},
                            {"window_size", c.windowSize},
                            {"swa_block_size", c.swaBlockSize},
                            {"dense_ratios", list(c.denseRatios)},
                            {"sparse_ratios", list(c.sparseRatios)},
                            {"max_model_len", c.maxModelLen},
                            {"max_num_blocks", c.maxNumBlocks},
                            {"force_load_balance", c.forceLoadBalance},
                            {"cp_size", c.cpSize},
                            {"cp_rank", c.cpRank},
                            {"yoco_prefill_keep_tokens", c.keepTokens},
                            {"nextn", c.nextn}};
  if (!c.lookupTable.empty()) {
    config["max_ngram_size"] = c.maxNgram;
    config["engram_pad_token"] = c.engramPad;
    config["engram_image_token"] = c.engramImage;
    config["engram_lookup_table"] = list(c.lookupTable);
  }
  return config;
}
} // namespace

llvm::json::Value imeta::ref::toJson(const Batch &b) {
  llvm::json::Object config = configJson(b.config);
  llvm::json::Array seqs;
  for (const Sequence &s : b.sequences) {
    llvm::json::Object obj{{"seqlen_q", s.seqlenQ},
                           {"seqlen_k", s.seqlenK},
                           {"block_table", list(s.blockTable)},
                           {"state_id", s.stateId},
                           {"token_ids", list(s.tokenIds)}};
    // Optional keys: sometimes omitted when default, to test defaults.
    if (s.isPlaceholder || s.stateId % 2)
      obj["is_placeholder"] = s.isPlaceholder;
    if (s.swaValidStart || s.stateId % 3 == 0)
      obj["swa_valid_start"] = s.swaValidStart;
    if (!s.draftTokens.empty() || s.stateId % 5 == 0)
      obj["draft_tokens"] = list(s.draftTokens);
    if (s.dataLen)
      obj["data_len"] = s.dataLen;
    seqs.push_back(std::move(obj));
  }
  return llvm::json::Object{{"config", std::move(config)},
                            {"sequences", std::move(seqs)}};
}

llvm::json::Value imeta::ref::toJson(const AsyncBatch &b) {
  auto rows = [](const std::vector<std::vector<int64_t>> &v) {
    llvm::json::Array out;
    for (const std::vector<int64_t> &row : v)
      out.push_back(list(row));
    return out;
  };
  const AsyncState &st = b.state;
  llvm::json::Object state{{"num_computed", list(st.numComputed)},
                           {"last_token", list(st.lastToken)},
                           {"num_drafts", list(st.numDrafts)},
                           {"draft_tokens", rows(st.draftTokens)},
                           {"state_id", list(st.stateId)},
                           {"block_table", rows(st.blockTable)}};
  llvm::json::Array seqs;
  for (const AsyncSequence &s : b.sequences) {
    llvm::json::Object obj{{"slot", s.slot}};
    if (s.writePlaceholder)
      obj["is_placeholder"] = s.isPlaceholder;
    seqs.push_back(std::move(obj));
  }
  return llvm::json::Object{{"config", configJson(b.config)},
                            {"state", std::move(state)},
                            {"sequences", std::move(seqs)}};
}

llvm::json::Value imeta::ref::randomAsyncBatchJson(uint64_t seed) {
  return toJson(randomAsyncBatch(seed));
}
