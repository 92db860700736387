//===- GeneratedInputs.h - a reference batch as generated-code input ------===//
//
// Lays a ref::Batch out as the generated code's Config and Sequences
// (structure of arrays, list inputs as values plus offsets). LLVM-free, for
// the CPU and the GPU tests alike.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_UNIT_GENERATEDINPUTS_H
#define IMETA_TEST_UNIT_GENERATEDINPUTS_H

#include "ReferenceV4.h"
#include "deepinfer_v4.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace imeta::ref {

namespace gen = imeta_gen::deepinfer_v4;

/// A batch in the generated code's input layout (structure of arrays).
struct GeneratedInputs {
  gen::Config config;
  gen::Sequences seqs;
  std::vector<int32_t> dense, sparse, q, k, state, valid;
  std::unique_ptr<bool[]> placeholder;
  std::vector<int32_t> blockTable, tokens, drafts;
  std::vector<int64_t> blockOff{0}, tokenOff{0}, draftOff{0};

  /// Without `blockTables`, the packed block table is left empty (a
  /// caller that gives the rows as a table, ref::withTable).
  explicit GeneratedInputs(const Batch &b, bool blockTables = true) {
    const Config &c = b.config;
    dense.assign(c.denseRatios.begin(), c.denseRatios.end());
    sparse.assign(c.sparseRatios.begin(), c.sparseRatios.end());
    config.block_size = c.blockSize;
    config.window_size = c.windowSize;
    config.swa_block_size = c.swaBlockSize;
    config.max_model_len = c.maxModelLen;
    config.max_num_blocks = c.maxNumBlocks;
    config.force_load_balance = c.forceLoadBalance;
    config.dense_ratios = dense.data();
    config.num_dense_ratios = dense.size();
    config.sparse_ratios = sparse.data();
    config.num_sparse_ratios = sparse.size();
    placeholder.reset(new bool[b.sequences.size() + 1]());
    for (size_t i = 0; i < b.sequences.size(); ++i) {
      const Sequence &s = b.sequences[i];
      q.push_back(s.seqlenQ);
      k.push_back(s.seqlenK);
      state.push_back(s.stateId);
      valid.push_back(s.swaValidStart);
      placeholder[i] = s.isPlaceholder;
      if (blockTables)
        blockTable.insert(blockTable.end(), s.blockTable.begin(),
                          s.blockTable.end());
      blockOff.push_back(blockTable.size());
      tokens.insert(tokens.end(), s.tokenIds.begin(), s.tokenIds.end());
      tokenOff.push_back(tokens.size());
      drafts.insert(drafts.end(), s.draftTokens.begin(), s.draftTokens.end());
      draftOff.push_back(drafts.size());
    }
    seqs.num_seqs = b.sequences.size();
    seqs.seqlen_q = q.data();
    seqs.seqlen_k = k.data();
    seqs.state_id = state.data();
    seqs.swa_valid_start = valid.data();
    seqs.is_placeholder = placeholder.get();
    seqs.block_table = blockTable.data();
    seqs.block_table_offsets = blockOff.data();
    seqs.token_ids = tokens.data();
    seqs.token_ids_offsets = tokenOff.data();
    seqs.draft_tokens = drafts.data();
    seqs.draft_tokens_offsets = draftOff.data();
  }
};

/// Host storage for a buffer set at the shape its `_shape` call recorded:
/// each output at its largest bucket's rows, its bytes set to `fill`
/// (elements of 4 bytes, 1 for bool outputs). Returns the storage.
template <typename Buffers>
std::vector<std::vector<char>> allocateHost(Buffers &set,
                                            const gen::OutputInfo *info,
                                            char fill) {
  std::vector<std::vector<char>> storage;
  for (int k = 0; k < Buffers::kCount; ++k) {
    gen::Buffer &b = set.begin()[k];
    int64_t rows = 1;
    for (int r = 0; r < b.buckets; ++r)
      rows = std::max(rows, b.rows[r]);
    b.capacity = rows;
    b.bucket_stride = rows * std::max<int64_t>(b.width, 1);
    b.max_buckets = std::max(b.buckets, 1);
    storage.emplace_back(
        b.bucket_stride * b.max_buckets * (info[k].is_bool ? 1 : 4) + 1, fill);
    b.data = storage.back().data();
  }
  return storage;
}

/// `seqs` with its block_table read from `table` at `rows` instead of the
/// packed lists.
inline gen::Sequences withTable(gen::Sequences seqs,
                                const gen::ListTable &table,
                                const std::vector<int32_t> &rows) {
  seqs.block_table = nullptr;
  seqs.block_table_offsets = nullptr;
  seqs.block_table_table = table;
  seqs.block_table_row = rows.data();
  return seqs;
}

/// The live values of a buffer, bucket by bucket, as bytes: `base` (host
/// memory) laid out as `layout` (bucket stride, row width), the rows and
/// columns `shape` recorded; with `cols`, row r only its first cols[r]
/// columns (rows past `cols`: all).
inline std::vector<char> liveBytes(const char *base, const gen::Buffer &layout,
                                   const gen::Buffer &shape, size_t elem,
                                   const std::vector<int64_t> *cols = nullptr) {
  std::vector<char> live;
  for (int32_t bucket = 0; bucket < shape.buckets; ++bucket)
    for (int64_t r = 0; r < shape.rows[bucket]; ++r) {
      int64_t n = shape.cols[bucket];
      if (cols && r < int64_t(cols->size()))
        n = std::min(n, (*cols)[size_t(r)]);
      for (int64_t c = 0; c < n; ++c) {
        size_t at =
            (size_t(bucket) * layout.bucket_stride + r * layout.width + c) *
            elem;
        live.insert(live.end(), base + at, base + at + elem);
      }
    }
  return live;
}

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_GENERATEDINPUTS_H
