//===- ReferenceV4.cpp - SPEC.md written out by hand, for tests -----------===//

#include "ReferenceV4.h"

#include <algorithm>

using namespace imeta::ref;

namespace {
Field flat(bool isBool = false) {
  Field f;
  f.isBool = isBool;
  return f;
}
Field rowsOf(unsigned width) {
  Field f;
  f.width = width;
  return f;
}
Field scalar(int64_t v) {
  Field f;
  f.isScalar = true;
  f.data = {v};
  return f;
}
std::string bucket(const std::string &name, int64_t n) {
  return name + "." + std::to_string(n);
}
int64_t query(const Sequence &s) { return s.seqlenQ; }
int64_t start(const Sequence &s) { return s.seqlenK - s.seqlenQ; }

/// Exclusive prefix sum of f(seq).
template <typename F>
Field exclusiveSum(const Batch &b, F f) {
  Field out = flat();
  int64_t acc = 0;
  out.data.push_back(0);
  for (const Sequence &s : b.sequences)
    out.data.push_back(acc += f(s));
  return out;
}

int64_t slotSwa(const Config &c, const Sequence &s, int64_t j) {
  if (s.isPlaceholder || s.seqlenQ - j > c.swaBlockSize)
    return -1;
  return s.stateId * c.swaBlockSize + (start(s) + j) % c.swaBlockSize;
}

int64_t caSlot(const Config &c, const Sequence &s, int64_t n, int64_t idx) {
  int64_t bc = c.blockSize / n;
  return s.blockTable[idx / bc] * bc + idx % bc;
}

void append(Field &f, std::initializer_list<int64_t> values) {
  f.data.insert(f.data.end(), values);
}

/// Fields both prompt and decode produce per row.
void commonRows(const Batch &b, Fields &out) {
  Field positions = flat(), gate = flat(true), valid = flat(true),
        slot = flat();
  for (const Sequence &s : b.sequences)
    for (int64_t j = 0; j < query(s); ++j) {
      positions.data.push_back(start(s) + j);
      gate.data.push_back(b.config.forceLoadBalance);
      valid.data.push_back(!s.isPlaceholder);
      slot.data.push_back(slotSwa(b.config, s, j));
    }
  out["positions"] = positions;
  out["gate_force_random"] = gate;
  out["valid_token_mask"] = valid;
  out["slot_mapping_store_swa"] = slot;
}
} // namespace

std::vector<int64_t> imeta::ref::caRatios(const Config &c) {
  std::vector<int64_t> all = c.denseRatios;
  all.insert(all.end(), c.sparseRatios.begin(), c.sparseRatios.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

int64_t imeta::ref::numBlocks(const Config &c, int64_t k) {
  int64_t r0 = caRatios(c).front();
  int64_t bc = c.blockSize / r0;
  return (k / r0 + bc - 1) / bc;
}

Fields imeta::ref::prompt(const Batch &b) {
  const Config &c = b.config;
  const int64_t N = b.sequences.size(), W = c.windowSize,
                S = c.swaBlockSize;
  Fields out;
  out["cu_seqlens_q"] = exclusiveSum(b, query);
  out["cu_seqlens_k"] = exclusiveSum(b, [](const Sequence &s) {
    return s.seqlenK;
  });
  commonRows(b, out);
  Field ids = flat();
  for (const Sequence &s : b.sequences)
    for (int64_t j = 0; j < query(s); ++j)
      ids.data.push_back(s.tokenIds[start(s) + j]);
  out["input_ids"] = ids;
  Field state = flat();
  for (const Sequence &s : b.sequences)
    state.data.push_back(s.stateId);
  out["state_block_idx"] = state;

  for (int64_t n : caRatios(c)) {
    auto kc = [n](const Sequence &s) {
      return std::max<int64_t>(1, s.seqlenK / n);
    };
    Field cu = exclusiveSum(b, kc);
    out[bucket("cu_compressed_seqlens_k", n)] = cu;
    out[bucket("total_k_compressed", n)] = scalar(cu.data.back());
    Field posC = flat(), slotC = flat(), load = rowsOf(4);
    Field cuCq = flat();
    cuCq.data.push_back(0);
    int64_t bc = c.blockSize / n;
    for (size_t i = 0; i < b.sequences.size(); ++i) {
      const Sequence &s = b.sequences[i];
      int64_t lo = start(s) / n, hi = s.seqlenK / n;
      if (lo >= hi) {
        posC.data.push_back(0);
        slotC.data.push_back(-1);
      }
      for (int64_t idx = lo; idx < hi; ++idx) {
        posC.data.push_back(s.isPlaceholder ? 0 : idx * n);
        slotC.data.push_back(s.isPlaceholder ? -1 : caSlot(c, s, n, idx));
      }
      cuCq.data.push_back(cuCq.data.back() + std::max<int64_t>(1, hi - lo));
      int64_t m = s.seqlenK / n, dst = cu.data[i];
      if (m == 0)
        append(load, {-1, 0, 1, dst});
      for (int64_t blk = 0; blk * bc < m; ++blk) {
        int64_t from = blk * bc, to = std::min(m, (blk + 1) * bc);
        append(load, {s.blockTable[blk], 0, to - from, dst + from});
      }
    }
    out[bucket("positions_c", n)] = posC;
    out[bucket("slot_mapping_store_ca", n)] = slotC;
    out[bucket("cu_seqlens_cq", n)] = cuCq;
    out[bucket("load_segments_ca", n)] = load;

    bool sparse = std::count(c.sparseRatios.begin(), c.sparseRatios.end(), n);
    bool dense = std::count(c.denseRatios.begin(), c.denseRatios.end(), n);
    Field ks = flat(), ke = flat(), offLen = rowsOf(2);
    for (size_t i = 0; i < b.sequences.size(); ++i) {
      const Sequence &s = b.sequences[i];
      for (int64_t j = 0; j < query(s); ++j) {
        int64_t pos = start(s) + j;
        ks.data.push_back(cu.data[i]);
        ke.data.push_back(cu.data[i] + (pos + 1) / n);
        append(offLen, {cu.data[i], (pos + 1) / n});
      }
    }
    if (sparse) {
      out[bucket("ks", n)] = ks;
      out[bucket("ke", n)] = ke;
    }
    if (dense)
      out[bucket("kv_ca_index_offset_len", n)] = offLen;
  }

  out["total_k_swa"] = scalar(N * W);
  Field loadSwa = rowsOf(4);
  for (int64_t i = 0; i < N; ++i) {
    const Sequence &s = b.sequences[i];
    int64_t he = start(s), hb = he - W;
    int64_t pad = std::clamp<int64_t>(s.swaValidStart - hb, 0, W);
    int64_t vb = hb + pad;
    if (pad > 0)
      append(loadSwa, {-1, 0, pad, i * W});
    // Split [vb, he) where the ring slot wraps back to 0.
    int64_t runStart = vb;
    for (int64_t p = vb; p <= he; ++p) {
      if (p == he || (p > runStart && p % S == 0)) {
        if (p > runStart)
          append(loadSwa, {s.stateId, runStart % S, runStart % S + (p - runStart),
                           i * W + (runStart - hb)});
        runStart = p;
      }
    }
  }
  out["load_segments_swa"] = loadSwa;

  Field pivots = rowsOf(4);
  int64_t cuQ = 0;
  for (int64_t i = 0; i < N; ++i) {
    const Sequence &s = b.sequences[i];
    int64_t qs = start(s);
    for (int64_t j = 0; j < query(s); ++j) {
      int64_t pos = qs + j;
      int64_t absLo = std::min(
          std::max({pos - W + 1, s.swaValidStart, int64_t(0)}), pos + 1);
      int64_t sec1Lo = std::min(absLo, qs);
      int64_t startSlot = sec1Lo - (qs - W);
      int64_t kLo = std::max<int64_t>(0, absLo - qs);
      append(pivots, {i * W + startSlot, W - startSlot, N * W + cuQ + kLo,
                      j - kLo + 1});
    }
    cuQ += query(s);
  }
  out["kv_swa_full_index_pivots"] = pivots;
  return out;
}

int64_t imeta::ref::denseIndexWidth(const Config &c, int64_t n) {
  return (c.maxModelLen / n + 127) / 128 * 128;
}

Fields imeta::ref::promptExpanded(const Batch &b) {
  Fields out = prompt(b);
  const Config &c = b.config;
  const int64_t W = c.windowSize;
  // kv_swa_full_index[r, 0:P1] = P0 + t, [P1:P1+P3] = P2 + t, rest -1.
  const Field &pivots = out["kv_swa_full_index_pivots"];
  Field full = rowsOf(W);
  for (size_t r = 0; r < pivots.data.size() / 4; ++r) {
    const int64_t *p = &pivots.data[r * 4];
    for (int64_t t = 0; t < W; ++t)
      full.data.push_back(t < p[1]          ? p[0] + t
                          : t < p[1] + p[3] ? p[2] + (t - p[1])
                                            : -1);
  }
  out["kv_swa_full_index"] = full;
  // kv_ca_index.n[r, 0:len] = offset + t, rest -1.
  for (int64_t n : c.denseRatios) {
    const Field &ol = out[bucket("kv_ca_index_offset_len", n)];
    int64_t width = denseIndexWidth(c, n);
    Field index = rowsOf(width);
    for (size_t r = 0; r < ol.data.size() / 2; ++r)
      for (int64_t t = 0; t < width; ++t)
        index.data.push_back(t < ol.data[2 * r + 1] ? ol.data[2 * r] + t : -1);
    out[bucket("kv_ca_index", n)] = index;
  }
  return out;
}

Fields imeta::ref::decode(const Batch &b, bool zos) {
  const Config &c = b.config;
  const int64_t W = c.windowSize, S = c.swaBlockSize;
  Fields out;
  Field cuQ = exclusiveSum(b, query);
  if (zos)
    cuQ.data.erase(cuQ.data.begin());
  out["cu_seqlens_q"] = cuQ;
  commonRows(b, out);

  Field ids = flat(), qidx = flat(), ctx = flat(), state = flat(),
        tables = rowsOf(c.maxNumBlocks), swa = rowsOf(2);
  for (size_t i = 0; i < b.sequences.size(); ++i) {
    const Sequence &s = b.sequences[i];
    int64_t nb = numBlocks(c, s.seqlenK);
    for (int64_t j = 0; j < query(s); ++j) {
      int64_t pos = start(s) + j;
      ids.data.push_back(j == 0 ? s.tokenIds.back() : s.draftTokens[j - 1]);
      qidx.data.push_back(s.isPlaceholder ? 998244353 : int64_t(i));
      ctx.data.push_back(pos + 1);
      state.data.push_back(s.stateId);
      for (int64_t col = 0; col < c.maxNumBlocks; ++col)
        tables.data.push_back(col < nb ? s.blockTable[col] : -1);
      tables.liveCols.push_back(nb);
      int64_t w = std::min(pos + 1, W);
      append(swa, {s.stateId * S + (pos - w + 1) % S, w});
    }
  }
  out["input_ids"] = ids;
  out["query_indices"] = qidx;
  out["context_lens"] = ctx;
  out["state_block_idx"] = state;
  out["block_tables"] = tables;
  out["kv_swa_index_offset_len"] = swa;

  for (int64_t n : caRatios(c)) {
    int64_t bc = c.blockSize / n;
    Field posC = flat(), slotC = flat(), klen = flat(), offLen = rowsOf(2);
    int64_t r = 0;
    for (const Sequence &s : b.sequences)
      for (int64_t j = 0; j < query(s); ++j, ++r) {
        int64_t pos = start(s) + j;
        bool closes = (pos + 1) % n == 0 && !s.isPlaceholder;
        posC.data.push_back(closes ? pos / n * n : 0);
        slotC.data.push_back(closes ? caSlot(c, s, n, pos / n) : -1);
        klen.data.push_back((pos + 1) / n);
        append(offLen, {r * c.maxNumBlocks * bc, (pos + 1) / n});
      }
    out[bucket("positions_c", n)] = posC;
    out[bucket("slot_mapping_store_ca", n)] = slotC;
    if (std::count(c.sparseRatios.begin(), c.sparseRatios.end(), n))
      out[bucket("klen", n)] = klen;
    if (std::count(c.denseRatios.begin(), c.denseRatios.end(), n))
      out[bucket("kv_ca_index_offset_len", n)] = offLen;
  }
  if (!zos)
    return out;

  // kv_swa_index[r, t] = base + (offset - base + t) % S for t < len.
  Field swaIndex = rowsOf(W);
  for (size_t r = 0; r < swa.data.size() / 2; ++r) {
    int64_t off = swa.data[2 * r], len = swa.data[2 * r + 1];
    int64_t base = off / S * S;
    for (int64_t t = 0; t < W; ++t)
      swaIndex.data.push_back(t < len ? base + (off - base + t) % S : -1);
  }
  out["kv_swa_index"] = swaIndex;
  // kv_ca_index.n[r, t]: p = offset + t, block_tables_flat[p / bc]·bc +
  // p % bc for t < len, through the row-major [T, max_num_blocks] table.
  for (int64_t n : c.denseRatios) {
    int64_t bc = c.blockSize / n, width = denseIndexWidth(c, n);
    const Field &ol = out[bucket("kv_ca_index_offset_len", n)];
    Field index = rowsOf(width);
    for (size_t r = 0; r < ol.data.size() / 2; ++r)
      for (int64_t t = 0; t < width; ++t) {
        if (t >= ol.data[2 * r + 1]) {
          index.data.push_back(-1);
          continue;
        }
        int64_t p = ol.data[2 * r] + t;
        int64_t flat = p / bc;
        index.data.push_back(tables.data[flat] * bc + p % bc);
      }
    out[bucket("kv_ca_index", n)] = index;
  }
  return out;
}
