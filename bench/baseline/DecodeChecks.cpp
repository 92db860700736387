//===- DecodeChecks.cpp - SPEC.md's decode rules, checked by hand ---------===//

#include "DecodeChecks.h"

#include <algorithm>
#include <cstdint>
#include <limits>

using namespace imeta;

namespace {
constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();

bool fits32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= kMax32;
}

std::string seqFail(size_t i, const char *rule) {
  return "sequence " + std::to_string(i) + ": " + rule;
}
} // namespace

std::string imeta::baseline::decodeChecks(const ref::Batch &b) {
  const ref::Config &c = b.config;
  const int64_t B = c.blockSize, W = c.windowSize, S = c.swaBlockSize,
                L = c.maxModelLen, mnb = c.maxNumBlocks;
  // R1: the config.
  for (int64_t v : {B, W, S, L, mnb})
    if (!fits32(v))
      return "R1: config value outside int32";
  if (B < 1 || W < 1 || S < W || L < 1 || mnb < 0)
    return "R1: block_size, window_size >= 1, swa_block_size >= "
           "window_size, max_model_len >= 1, max_num_blocks >= 0";
  if (c.denseRatios.empty() && c.sparseRatios.empty())
    return "R1: ca_ratios is empty";
  int64_t minRatio = INT64_MAX, minDense = INT64_MAX;
  for (const std::vector<int64_t> *set : {&c.denseRatios, &c.sparseRatios})
    for (int64_t n : *set) {
      if (n < 1 || n > B || B % n != 0)
        return "R1: every ratio >= 1 and dividing block_size";
      minRatio = std::min(minRatio, n);
    }
  for (int64_t n : c.denseRatios)
    minDense = std::min(minDense, n);
  // R2.
  if (b.sequences.empty())
    return "R2: the batch has no sequence";
  const int64_t bcMax = B / minRatio;
  int64_t T = 0;
  for (size_t i = 0; i < b.sequences.size(); ++i) {
    const ref::Sequence &s = b.sequences[i];
    const int64_t q = s.seqlenQ, k = s.seqlenK;
    // R3.
    if (q < 1 || q > k || k > L)
      return seqFail(i, "R3: 1 <= seqlen_q <= seqlen_k <= max_model_len");
    if (s.stateId < 0 || s.swaValidStart < 0)
      return seqFail(i, "R3: state_id >= 0 and swa_valid_start >= 0");
    const int64_t nb = ref::numBlocks(c, k);
    if (int64_t(s.blockTable.size()) < nb)
      return seqFail(i, "R3: block_table has >= num_blocks entries");
    // The ids or-ed: negative iff one is; for ids >= 0, above INT32_MAX
    // iff one is, else a bound on every id (vectorizes, unlike min/max).
    int64_t ids = 0;
    for (int64_t id : s.blockTable)
      ids |= id;
    if (ids < 0)
      return seqFail(i, "R3: block ids >= 0");
    // R5.
    const int64_t tokens = int64_t(s.tokenIds.size());
    if ((tokens != k - q + 1 && tokens != 1) ||
        int64_t(s.draftTokens.size()) != q - 1)
      return seqFail(i, "R5: token_ids has k - q + 1 entries or 1, "
                        "draft_tokens q - 1");
    if (nb > mnb)
      return seqFail(i, "R5: num_blocks <= max_num_blocks");
    if (S < W + q - 1)
      return seqFail(i, "R5: swa_block_size >= window_size + seqlen_q - 1");
    // R6: the values the rows copy or compute. The block ids' bound stands
    // for every id a slot reads; only where it overflows are the slots the
    // rows write computed one by one.
    if (!fits32(s.tokenIds.back()))
      return seqFail(i, "R6: input_ids outside int32");
    for (int64_t t : s.draftTokens)
      if (!fits32(t))
        return seqFail(i, "R6: input_ids outside int32");
    if (!fits32(s.stateId))
      return seqFail(i, "R6: state_id outside int32");
    for (int64_t p = k - q; p < k; ++p) {
      const int64_t w = std::min(p + 1, W);
      if (s.stateId * S + std::max(p % S, (p - w + 1) % S) > kMax32)
        return seqFail(i, "R6: a ring slot (state_id * swa_block_size + "
                          "...) overflows int32");
    }
    if (ids > kMax32)
      return seqFail(i, "R6: block id outside int32");
    if (ids > (kMax32 - (bcMax - 1)) / bcMax) {
      for (const std::vector<int64_t> *set : {&c.denseRatios, &c.sparseRatios})
        for (int64_t n : *set) {
          const int64_t bc = B / n;
          for (int64_t p = k - q; p < k; ++p) {
            if ((p + 1) % n != 0 || s.isPlaceholder)
              continue;
            const int64_t cidx = p / n;
            if (s.blockTable[cidx / bc] * bc + cidx % bc > kMax32)
              return seqFail(i, "R6: slot_mapping_store_ca overflows int32");
          }
        }
    }
    T += q;
  }
  const int64_t perRow = minDense == INT64_MAX ? 0 : mnb * (B / minDense);
  if (perRow > 0 && T > kMax32 / perRow)
    return "R6: total_q * max_num_blocks * bc(min dense ratio) > 2^31 - 1";
  return "";
}
