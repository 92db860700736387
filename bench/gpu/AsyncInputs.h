//===- AsyncInputs.h - the generated decode_async's inputs from a state copy -*- C++ -*-===//
//
// What an engine hands the generated decode_async today: its Config (the
// step benches' keys plus nextn) and Sequences over a host copy of the
// request state (AsyncState.h). The scalar arrays and draft rows are read
// in place; the block-table rows, kept at a fixed stride with a length
// each, are laid end to end as the list input's values and offsets (rows
// of slots the batch does not read are left empty: nothing reads them).
// AsyncDeviceInputs: the Sequences of decode_async's device step, over the
// state where it lives, in device memory.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_GPU_ASYNCINPUTS_H
#define IMETA_BENCH_GPU_ASYNCINPUTS_H

#include "AsyncState.h"
#include "ReferenceV4.h"
#include "deepinfer_v4.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace imeta::bench {

namespace gen = imeta_gen::deepinfer_v4;

/// The generated code's Config for `c` (with its nextn).
struct AsyncConfig {
  gen::Config config;
  std::vector<int32_t> dense, sparse;
  explicit AsyncConfig(const ref::Config &c)
      : dense(c.denseRatios.begin(), c.denseRatios.end()),
        sparse(c.sparseRatios.begin(), c.sparseRatios.end()) {
    config.block_size = int32_t(c.blockSize);
    config.window_size = int32_t(c.windowSize);
    config.swa_block_size = int32_t(c.swaBlockSize);
    config.max_model_len = int32_t(c.maxModelLen);
    config.max_num_blocks = int32_t(c.maxNumBlocks);
    config.force_load_balance = c.forceLoadBalance;
    config.nextn = int32_t(c.nextn);
    config.dense_ratios = dense.data();
    config.num_dense_ratios = int32_t(dense.size());
    config.sparse_ratios = sparse.data();
    config.num_sparse_ratios = int32_t(sparse.size());
  }
  AsyncConfig(const AsyncConfig &) = delete;
  AsyncConfig &operator=(const AsyncConfig &) = delete;
};

/// decode_async's Sequences over the host state `st` (its pointers kept).
class AsyncInputs {
public:
  explicit AsyncInputs(const baseline::AsyncStateView &st)
      : st(st), draftOff(size_t(st.slots) + 1), blockOff(size_t(st.slots) + 1),
        read(size_t(st.slots)) {
    for (int32_t s = 0; s <= st.slots; ++s)
      draftOff[size_t(s)] = int64_t(s) * st.nextn;
    blocks.reserve(size_t(st.slots) * st.max_blocks);
  }

  /// The step of `n` sequences at `slots` (-1: padding) with `placeholder`
  /// flags, on the state as the host copy holds it now.
  const gen::Sequences &build(int32_t n, const int32_t *slots,
                              const bool *placeholder) {
    std::fill(read.begin(), read.end(), 0);
    for (int32_t i = 0; i < n; ++i)
      if (slots[i] >= 0)
        read[size_t(slots[i])] = 1;
    blocks.clear();
    for (int32_t s = 0; s < st.slots; ++s) {
      blockOff[size_t(s)] = int64_t(blocks.size());
      if (read[size_t(s)]) {
        const int32_t *row = st.block_table + int64_t(s) * st.max_blocks;
        blocks.insert(blocks.end(), row, row + st.block_len[s]);
      }
    }
    blockOff[size_t(st.slots)] = int64_t(blocks.size());
    seqs = gen::Sequences{};
    seqs.num_seqs = n;
    seqs.slot = slots;
    seqs.is_placeholder = placeholder;
    seqs.slot_slots = st.slots;
    seqs.num_computed = st.num_computed;
    seqs.slot_last_token = st.last_token;
    seqs.num_drafts = st.num_drafts;
    seqs.slot_draft_tokens = st.draft_tokens;
    seqs.slot_draft_tokens_offsets = draftOff.data();
    seqs.slot_state_id = st.state_id;
    seqs.slot_block_table = blocks.data();
    seqs.slot_block_table_offsets = blockOff.data();
    return seqs;
  }

private:
  baseline::AsyncStateView st;
  std::vector<int64_t> draftOff, blockOff;
  std::vector<int32_t> blocks;
  std::vector<char> read;
  gen::Sequences seqs;
};

/// decode_async's Sequences over the state in device memory, read in place
/// by its device step: the block table as a table (rows max_blocks apart,
/// block_len entries each), the draft rows through offsets r * nextn made
/// once on the device.
class AsyncDeviceInputs {
public:
  explicit AsyncDeviceInputs(const baseline::AsyncStateView &dev) : st(dev) {
    std::vector<int64_t> off(size_t(st.slots) + 1);
    for (int32_t s = 0; s <= st.slots; ++s)
      off[size_t(s)] = int64_t(s) * st.nextn;
    if (cudaMalloc(&draftOff, off.size() * sizeof(int64_t)) == cudaSuccess)
      cudaMemcpy(draftOff, off.data(), off.size() * sizeof(int64_t),
                 cudaMemcpyHostToDevice);
  }
  ~AsyncDeviceInputs() { cudaFree(draftOff); }
  AsyncDeviceInputs(const AsyncDeviceInputs &) = delete;
  AsyncDeviceInputs &operator=(const AsyncDeviceInputs &) = delete;
  /// The step of `n` sequences at `slots` (host memory; -1: padding).
  const gen::Sequences &build(int32_t n, const int32_t *slots,
                              const bool *placeholder) {
    seqs = gen::Sequences{};
    seqs.num_seqs = n;
    seqs.slot = slots;
    seqs.is_placeholder = placeholder;
    seqs.slot_slots = st.slots;
    seqs.num_computed = st.num_computed;
    seqs.slot_last_token = st.last_token;
    seqs.num_drafts = st.num_drafts;
    seqs.slot_draft_tokens = st.draft_tokens;
    seqs.slot_draft_tokens_offsets = draftOff;
    seqs.slot_state_id = st.state_id;
    seqs.slot_block_table = st.block_table;
    seqs.slot_block_table_stride = st.max_blocks;
    seqs.slot_block_table_lengths = st.block_len;
    return seqs;
  }

private:
  baseline::AsyncStateView st;
  int64_t *draftOff = nullptr;
  gen::Sequences seqs;
};

} // namespace imeta::bench

#endif // IMETA_BENCH_GPU_ASYNCINPUTS_H
