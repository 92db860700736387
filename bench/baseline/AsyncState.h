//===- AsyncState.h - request state by slot on the device, and its joins -*- C++ -*-===//
//
// The engine-owned request state of SPEC-async.md §2 as the decode_async
// bench keeps it: one device allocation of int32 arrays indexed by a
// request slot (num_computed, last_token, num_drafts, state_id, the block
// table's row lengths, draft rows of nextn, block-table rows of
// max_num_blocks), so that copying it to the host is one copy. A request
// that joins writes its slot through a join record, laid out here once for
// the host that writes it and the kernels that apply it ((b'')'s fused
// kernel, the bench's scatter for the other steps).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_ASYNCSTATE_H
#define IMETA_BENCH_ASYNCSTATE_H

#include <cstdint>
#include <cstring>
#include <vector>

#ifdef __CUDACC__
#define IMETA_ASYNC_HD __host__ __device__
#else
#define IMETA_ASYNC_HD
#endif

namespace imeta::baseline {

/// The state arrays, all in one allocation (device, or a host copy of it).
struct AsyncStateView {
  int32_t *num_computed, *last_token, *num_drafts, *state_id;
  int32_t *block_len;    ///< entries of each block-table row
  int32_t *draft_tokens; ///< [slots][nextn]
  int32_t *block_table;  ///< [slots][max_blocks]
  int32_t slots, nextn, max_blocks;
};

/// Where each array lies in the allocation (int32 words; the block table
/// 16-byte aligned, so that rows of a multiple of 4 ids copy as int4).
struct AsyncStateLayout {
  int32_t slots, nextn, maxBlocks;
  size_t tableAt, words;
  AsyncStateLayout(int32_t numSlots, int32_t drafts, int32_t blocks)
      : slots(numSlots), nextn(drafts), maxBlocks(blocks) {
    tableAt = (size_t(slots) * (5 + nextn) + 3) / 4 * 4;
    words = tableAt + size_t(slots) * maxBlocks;
  }
  size_t bytes() const { return words * sizeof(int32_t); }
  AsyncStateView at(int32_t *base) const {
    const size_t s = size_t(slots);
    return {base,          base + s,     base + 2 * s, base + 3 * s,
            base + 4 * s,  base + 5 * s, base + tableAt, slots, nextn,
            maxBlocks};
  }
};

/// A request joining at `slot` (placed at sequence `seq` of its first step).
struct AsyncJoin {
  int32_t seq, slot, numComputed, lastToken, numDrafts, stateId;
  std::vector<int32_t> drafts; ///< nextn tokens
  std::vector<int32_t> blocks; ///< its block-table row
};

/// A join record: these header words, then nextn drafts, then the blocks.
enum AsyncJoinWord {
  kJoinSlot,
  kJoinComputed,
  kJoinLast,
  kJoinDrafts,
  kJoinState,
  kJoinBlocks,
  kJoinHeader
};

inline size_t joinWords(const AsyncJoin &j) {
  return kJoinHeader + j.drafts.size() + j.blocks.size();
}

/// Writes `j`'s record at `dst`; returns the words written.
inline size_t writeJoin(int32_t *dst, const AsyncJoin &j) {
  dst[kJoinSlot] = j.slot;
  dst[kJoinComputed] = j.numComputed;
  dst[kJoinLast] = j.lastToken;
  dst[kJoinDrafts] = j.numDrafts;
  dst[kJoinState] = j.stateId;
  dst[kJoinBlocks] = int32_t(j.blocks.size());
  std::memcpy(dst + kJoinHeader, j.drafts.data(), j.drafts.size() * 4);
  std::memcpy(dst + kJoinHeader + j.drafts.size(), j.blocks.data(),
              j.blocks.size() * 4);
  return joinWords(j);
}

/// Writes record `rec` into the state, thread `t` of `nt` (thread 0 the
/// scalars, all of them the rows).
IMETA_ASYNC_HD inline void applyJoin(const AsyncStateView &s,
                                     const int32_t *rec, int32_t t,
                                     int32_t nt) {
  const int32_t slot = rec[kJoinSlot], nb = rec[kJoinBlocks];
  if (t == 0) {
    s.num_computed[slot] = rec[kJoinComputed];
    s.last_token[slot] = rec[kJoinLast];
    s.num_drafts[slot] = rec[kJoinDrafts];
    s.state_id[slot] = rec[kJoinState];
    s.block_len[slot] = nb;
  }
  const int32_t *drafts = rec + kJoinHeader, *blocks = drafts + s.nextn;
  for (int32_t k = t; k < s.nextn; k += nt)
    s.draft_tokens[int64_t(slot) * s.nextn + k] = drafts[k];
  for (int32_t k = t; k < nb; k += nt)
    s.block_table[int64_t(slot) * s.max_blocks + k] = blocks[k];
}

} // namespace imeta::baseline

#endif // IMETA_BENCH_ASYNCSTATE_H
