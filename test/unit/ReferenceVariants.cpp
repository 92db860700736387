//===- ReferenceVariants.cpp - SPEC-variants.md as plain loops ------------===//

#include "ReferenceVariants.h"
#include "RandomBatch.h"

#include <algorithm>
#include <random>

using namespace imeta::ref;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

Field flatField(std::vector<int64_t> data, bool isBool = false) {
  Field f;
  f.isBool = isBool;
  f.data = std::move(data);
  return f;
}

Field scalarField(int64_t v) {
  Field f;
  f.isScalar = true;
  f.data = {v};
  return f;
}

Field rowField(unsigned width) {
  Field f;
  f.width = width;
  return f;
}

std::string bucketName(const std::string &name, int64_t n) {
  return name + "." + std::to_string(n);
}

std::vector<int64_t> queryLengths(const Batch &b) {
  std::vector<int64_t> q;
  for (const Sequence &s : b.sequences)
    q.push_back(s.seqlenQ);
  return q;
}

std::vector<int64_t> exclusive(const std::vector<int64_t> &v) {
  std::vector<int64_t> cu{0};
  for (int64_t x : v)
    cu.push_back(cu.back() + x);
  return cu;
}

/// cu_compressed_seqlens_k.n[i]: the max(1, k / n) prefix sum.
std::vector<int64_t> compressedStarts(const Batch &b, int64_t n) {
  std::vector<int64_t> len;
  for (const Sequence &s : b.sequences)
    len.push_back(std::max<int64_t>(1, s.seqlenK / n));
  return exclusive(len);
}

/// SPEC.md §3.4's pivots for a row at position pos whose lowest visible
/// position is absLo, with this chunk's keys of the sequence at sec2Start
/// (kept from row offset keysFrom on).
void appendPivots(Field &f, const Config &c, int64_t i, int64_t s, int64_t pos,
                  int64_t absLo, int64_t sec2Start, int64_t keysFrom) {
  const int64_t W = c.windowSize;
  int64_t sec1Lo = std::min(absLo, s);
  int64_t startSlot = sec1Lo - (s - W);
  int64_t kLo = std::max<int64_t>(0, absLo - s);
  f.data.push_back(i * W + startSlot);
  f.data.push_back(W - startSlot);
  f.data.push_back(sec2Start + kLo - keysFrom);
  f.data.push_back(pos - s - kLo + 1);
}

struct Yoco {
  std::vector<int64_t> rectLo, clip, kept, cuQc;
};

Yoco yocoOf(const Batch &b) {
  Yoco y;
  const int64_t K = b.config.keepTokens;
  for (const Sequence &s : b.sequences) {
    int64_t start = s.seqlenK - s.seqlenQ;
    y.rectLo.push_back(std::max<int64_t>(0, s.dataLen - K));
    int64_t clip = std::clamp<int64_t>(s.dataLen - K - start, 0, s.seqlenQ - 1);
    y.clip.push_back(clip);
    y.kept.push_back(s.seqlenQ - clip);
  }
  y.cuQc = exclusive(y.kept);
  return y;
}

} // namespace

std::vector<int64_t> imeta::ref::mirrorIndex(const std::vector<int64_t> &l,
                                             int64_t p, int64_t rho) {
  std::vector<int64_t> index;
  int64_t cuL = 0;
  for (int64_t len : l) {
    int64_t ps = ceilDiv(len, 2 * p);
    for (int64_t h = 0; h < 2; ++h) {
      int64_t piece = h == 0 ? rho : 2 * p - 1 - rho;
      for (int64_t t = 0; t < ps; ++t) {
        int64_t u = piece * ps + t;
        index.push_back(u < len ? cuL + u : -1);
      }
    }
    cuL += len;
  }
  return index;
}

std::vector<int64_t> imeta::ref::mirrorReverse(const std::vector<int64_t> &l,
                                               int64_t p) {
  int64_t tm = 0;
  for (int64_t len : l)
    tm += 2 * ceilDiv(len, 2 * p);
  std::vector<int64_t> rev;
  int64_t cuM = 0;
  for (int64_t len : l) {
    int64_t ps = ceilDiv(len, 2 * p);
    for (int64_t u = 0; u < len; ++u) {
      int64_t piece = u / ps, t = u % ps;
      int64_t rank = piece < p ? piece : 2 * p - 1 - piece;
      int64_t h = piece < p ? 0 : 1;
      rev.push_back(rank * tm + cuM + h * ps + t);
    }
    cuM += 2 * ps;
  }
  return rev;
}

Fields imeta::ref::promptCpMirror(const Batch &b) {
  const Config &c = b.config;
  std::vector<int64_t> q = queryLengths(b), cuQ = exclusive(q);
  std::vector<int64_t> index = mirrorIndex(q, c.cpSize, c.cpRank);
  Fields out;
  out["mirror_cp_index"] = flatField(index);
  out["cp_mirror_len"] = scalarField(int64_t(index.size()));
  out["mirror_cp_reverse_index"] = flatField(mirrorReverse(q, c.cpSize));
  // The sequence of each mirror row: sequence i has 2 ceil(q / 2p) rows.
  std::vector<int64_t> seqOf;
  for (size_t i = 0; i < q.size(); ++i)
    seqOf.insert(seqOf.end(), 2 * ceilDiv(q[i], 2 * c.cpSize), int64_t(i));
  Field pos = flatField({}), gate = flatField({}, true),
        valid = flatField({}, true);
  for (size_t m = 0; m < index.size(); ++m) {
    const Sequence &s = b.sequences[seqOf[m]];
    bool real = index[m] >= 0;
    int64_t gpos =
        real ? s.seqlenK - s.seqlenQ + (index[m] - cuQ[seqOf[m]]) : 0;
    pos.data.push_back(gpos);
    gate.data.push_back(real && c.forceLoadBalance);
    valid.data.push_back(real && !s.isPlaceholder);
  }
  out["positions"] = pos;
  out["gate_force_random"] = gate;
  out["valid_token_mask"] = valid;
  for (int64_t n : c.sparseRatios) {
    std::vector<int64_t> cuC = compressedStarts(b, n);
    Field ks = flatField({}), ke = flatField({});
    for (size_t m = 0; m < index.size(); ++m) {
      if (index[m] < 0) {
        ks.data.push_back(0);
        ke.data.push_back(0);
        continue;
      }
      int64_t gpos = pos.data[m];
      ks.data.push_back(cuC[seqOf[m]]);
      ke.data.push_back(cuC[seqOf[m]] + (gpos + 1) / n);
    }
    out[bucketName("ks", n)] = ks;
    out[bucketName("ke", n)] = ke;
  }
  return out;
}

/// Rows of `src` (a field of columns) gathered through `index`: a pad
/// row (index -1) all -1 (SPEC-variants.md §3, the expansions).
static Field gatherRows(const Field &src, const std::vector<int64_t> &index) {
  Field out = src;
  out.hasCols = true; // a `cols` field: rows even when one column wide
  out.data.clear();
  out.liveCols.clear();
  out.emptyRows = src.width == 0 ? int64_t(index.size()) : 0;
  for (int64_t r : index)
    for (unsigned c = 0; c < src.width; ++c)
      out.data.push_back(r < 0 ? -1 : src.data[r * src.width + c]);
  return out;
}

Fields imeta::ref::promptCpExpanded(const Batch &b) {
  Fields out = promptCpMirror(b);
  std::vector<int64_t> index = out["mirror_cp_index"].data;
  for (auto &[name, field] : promptExpanded(b))
    if (name == "kv_swa_full_index" || name.rfind("kv_ca_index.", 0) == 0)
      out[name] = gatherRows(field, index);
  return out;
}

Fields imeta::ref::promptCp(const Batch &b) {
  Fields out = prompt(b);
  out["positions_cp"] = out["positions"];
  out["gate_force_random_cp"] = out["gate_force_random"];
  for (auto &kv : promptCpMirror(b))
    out[kv.first] = kv.second;
  return out;
}

Fields imeta::ref::promptYoco(const Batch &b) {
  const Config &c = b.config;
  const int64_t N = b.sequences.size(), W = c.windowSize, S = c.swaBlockSize;
  Fields out = prompt(b);
  Yoco y = yocoOf(b);
  std::vector<int64_t> cuQ = exclusive(queryLengths(b));
  out["yoco_clip_prefix"] = flatField(y.clip);
  out["yoco_consumer_cu_seqlens_q"] = flatField(y.cuQc);
  out["yoco_consumer_total_q"] = scalarField(y.cuQc.back());
  Field mask = rowField(4), pivots = rowField(4);
  Field rows = flatField({}), pos = flatField({}), slot = flatField({});
  for (int64_t i = 0; i < N; ++i) {
    const Sequence &s = b.sequences[i];
    const int64_t start = s.seqlenK - s.seqlenQ;
    auto absLo = [&](int64_t p) {
      int64_t lo =
          std::max({p - W + 1, y.rectLo[i], s.swaValidStart, int64_t(0)});
      return std::min(lo, p + 1);
    };
    for (int64_t j = 0; j < s.seqlenQ; ++j)
      appendPivots(mask, c, i, start, start + j, absLo(start + j),
                   N * W + cuQ[i], 0);
    for (int64_t j = y.clip[i]; j < s.seqlenQ; ++j) {
      int64_t p = start + j;
      rows.data.push_back(cuQ[i] + j);
      pos.data.push_back(p);
      bool store = !s.isPlaceholder && p >= y.rectLo[i] && s.seqlenQ - j <= S;
      slot.data.push_back(store ? s.stateId * S + p % S : -1);
      appendPivots(pivots, c, i, start, p, absLo(p), N * W + y.cuQc[i],
                   y.clip[i]);
    }
  }
  out["yoco_mask_swa_index_pivots"] = mask;
  out["yoco_consumer_swa_index_pivots"] = pivots;
  out["yoco_consumer_query_indices"] = rows;
  out["yoco_consumer_positions"] = pos;
  out["yoco_consumer_slot_mapping_store_swa"] = slot;
  auto perKeptRow = [&](int64_t n, auto value) {
    std::vector<int64_t> cuC = compressedStarts(b, n);
    std::vector<int64_t> data;
    for (int64_t i = 0; i < N; ++i) {
      const Sequence &s = b.sequences[i];
      for (int64_t j = y.clip[i]; j < s.seqlenQ; ++j)
        value(data, cuC[i], s.seqlenK - s.seqlenQ + j);
    }
    return data;
  };
  for (int64_t n : c.sparseRatios) {
    out[bucketName("yoco_consumer_ks", n)] =
        flatField(perKeptRow(n, [](std::vector<int64_t> &d, int64_t base,
                                   int64_t) { d.push_back(base); }));
    out[bucketName("yoco_consumer_ke", n)] = flatField(
        perKeptRow(n, [n](std::vector<int64_t> &d, int64_t base, int64_t p) {
          d.push_back(base + (p + 1) / n);
        }));
  }
  for (int64_t n : c.denseRatios) {
    Field f = rowField(2);
    f.data =
        perKeptRow(n, [n](std::vector<int64_t> &d, int64_t base, int64_t p) {
          d.push_back(base);
          d.push_back((p + 1) / n);
        });
    out[bucketName("yoco_consumer_kv_ca_index_offset_len", n)] = f;
  }
  return out;
}

Fields imeta::ref::promptYocoCp(const Batch &b) {
  const Config &c = b.config;
  const int64_t N = b.sequences.size(), p = c.cpSize;
  Fields out = promptYoco(b);
  out["positions_cp"] = out["positions"];
  out["gate_force_random_cp"] = out["gate_force_random"];
  for (auto &kv : promptCpMirror(b))
    out[kv.first] = kv.second;

  // The compact mirror: MIRROR(kc, rho).
  Yoco y = yocoOf(b);
  std::vector<int64_t> q = queryLengths(b), cuQ = exclusive(q);
  std::vector<int64_t> index = mirrorIndex(y.kept, p, c.cpRank);
  out["yoco_consumer_cp_mirror_len"] = scalarField(int64_t(index.size()));
  out["yoco_consumer_mirror_cp_index"] = flatField(index);
  out["yoco_consumer_mirror_cp_reverse_index"] =
      flatField(mirrorReverse(y.kept, p));
  std::vector<int64_t> seqOf;
  for (int64_t i = 0; i < N; ++i)
    seqOf.insert(seqOf.end(), 2 * ceilDiv(y.kept[i], 2 * p), i);
  Field pos = flatField({}), valid = flatField({}, true);
  for (size_t m = 0; m < index.size(); ++m) {
    const Sequence &s = b.sequences[seqOf[m]];
    bool real = index[m] >= 0;
    int64_t u = index[m] - y.cuQc[seqOf[m]];
    pos.data.push_back(real ? s.seqlenK - y.kept[seqOf[m]] + u : 0);
    valid.data.push_back(real && !s.isPlaceholder);
  }
  out["yoco_consumer_cp_positions"] = pos;
  out["yoco_consumer_cp_valid_token_mask"] = valid;
  for (int64_t n : c.sparseRatios) {
    std::vector<int64_t> cuC = compressedStarts(b, n);
    Field ks = flatField({}), ke = flatField({});
    for (size_t m = 0; m < index.size(); ++m) {
      bool real = index[m] >= 0;
      ks.data.push_back(real ? cuC[seqOf[m]] : 0);
      ke.data.push_back(real ? cuC[seqOf[m]] + (pos.data[m] + 1) / n : 0);
    }
    out[bucketName("yoco_consumer_cp_ks", n)] = ks;
    out[bucketName("yoco_consumer_cp_ke", n)] = ke;
  }

  // Each rank's contribution: the rows of its full mirror that survive
  // compaction (local row u >= clip), in mirror order; where each global
  // row lands in the rank-major all-gather of them.
  std::vector<std::vector<int64_t>> contrib(p);
  std::vector<std::pair<int64_t, int64_t>> holder(cuQ.back(), {-1, -1});
  int64_t padLen = 0;
  for (int64_t rho = 0; rho < p; ++rho) {
    std::vector<int64_t> full = mirrorIndex(q, p, rho);
    for (size_t m = 0; m < full.size(); ++m) {
      if (full[m] < 0)
        continue;
      int64_t i = std::upper_bound(cuQ.begin(), cuQ.end(), full[m]) -
                  cuQ.begin() - 1;
      if (full[m] - cuQ[i] < y.clip[i])
        continue;
      holder[full[m]] = {rho, int64_t(contrib[rho].size())};
      contrib[rho].push_back(int64_t(m));
    }
    padLen = std::max(padLen, int64_t(contrib[rho].size()));
  }
  out["yoco_consumer_cp_contrib_pad_len"] = scalarField(padLen);
  std::vector<int64_t> mine = contrib[c.cpRank];
  mine.resize(padLen, -1);
  out["yoco_cp_contrib_index"] = flatField(mine);
  Field boundary = flatField({});
  for (size_t m = 0; m < index.size(); ++m) {
    if (index[m] < 0) {
      boundary.data.push_back(-1);
      continue;
    }
    int64_t i = seqOf[m];
    int64_t row = cuQ[i] + y.clip[i] + (index[m] - y.cuQc[i]);
    auto [rho, t] = holder[row];
    boundary.data.push_back(rho * padLen + t);
  }
  out["yoco_cp_boundary_index"] = boundary;
  return out;
}

Fields imeta::ref::promptEngram(const Batch &b) {
  const Config &c = b.config;
  Fields out = prompt(b);
  Field rows = rowField(unsigned(c.maxNgram));
  rows.hasCols = true;
  for (const Sequence &s : b.sequences)
    for (int64_t j = 0; j < s.seqlenQ; ++j) {
      int64_t pos = s.seqlenK - s.seqlenQ + j;
      // Walking back from the row's own token: past an image sentinel or
      // the sequence's start, every column is the pad.
      bool blocked = false;
      for (int64_t col = 0; col < c.maxNgram; ++col) {
        int64_t t = pos - col;
        blocked = blocked || t < 0 || s.tokenIds[t] == c.engramImage;
        rows.data.push_back(blocked ? c.engramPad
                                    : c.lookupTable[s.tokenIds[t]]);
      }
    }
  out["ngram_token_ids"] = rows;
  return out;
}

Batch imeta::ref::randomEngramBatch(uint64_t seed) {
  Batch b = randomBatch(PathKind::Prompt, seed);
  std::mt19937_64 rng(seed * 31 + 7);
  auto in = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Config &c = b.config;
  int64_t V = in(1, 12);
  c.maxNgram = in(1, 5);
  c.engramPad = in(-3, 3);
  c.engramImage = in(0, 2) == 0 ? -1 : in(0, V - 1);
  c.lookupTable.clear();
  for (int64_t t = 0; t < V; ++t)
    c.lookupTable.push_back(in(0, 3) == 0 ? in(0, INT32_MAX) : in(0, 1000));
  for (Sequence &s : b.sequences)
    for (int64_t &t : s.tokenIds)
      t %= V;
  return b;
}

Fields imeta::ref::decodeVarlen(const Batch &b) {
  Fields out = decode(b, /*zos=*/true);
  // decode_zos: without decode_zos_expanded's expansions.
  for (auto it = out.begin(); it != out.end();)
    it = it->first.rfind("kv_swa_index", 0) == 0 && it->first.size() == 12
             ? out.erase(it)
         : it->first.rfind("kv_ca_index.", 0) == 0 ? out.erase(it)
                                                   : std::next(it);
  out["seqlens_q"] = flatField(queryLengths(b));
  return out;
}

std::vector<Batch> imeta::ref::variantEdgeBatches() {
  std::vector<Batch> batches;
  Config c{/*blockSize=*/8,
           /*windowSize=*/4,
           /*swaBlockSize=*/6,
           /*maxModelLen=*/64,
           /*maxNumBlocks=*/8,        {4}, {2},
           /*forceLoadBalance=*/false};
  c.cpSize = 2;
  c.cpRank = 1;
  c.keepTokens = 3;
  auto seq = [](int64_t q, int64_t k, int64_t state, int64_t dataLen) {
    Sequence s;
    s.seqlenQ = q;
    s.seqlenK = k;
    s.stateId = state;
    s.dataLen = dataLen;
    s.blockTable = {3, 9, 4, 7, 1, 2, 5, 6};
    for (int64_t t = 0; t < k; ++t)
      s.tokenIds.push_back(11 + t);
    return s;
  };
  // §8's worked example.
  batches.push_back({c, {seq(5, 7, 1, 8), seq(3, 3, 0, 3)}});
  // p = 1 (each rank's mirror is the layout), every rank of p = 3 on
  // chunks shorter than 2p, single-token rows.
  for (int64_t p : {1, 3})
    for (int64_t rho = 0; rho < p; ++rho) {
      Config cp = c;
      cp.cpSize = p;
      cp.cpRank = rho;
      batches.push_back({cp,
                         {seq(1, 1, 0, 1), seq(2, 9, 1, 9), seq(5, 5, 2, 5),
                          seq(1, 30, 3, 40), seq(13, 20, 4, 20)}});
    }
  // clip = q - 1 (a chunk wholly before the rectangle keeps its last row),
  // clip = 0 (K >= data_len), a clip inside the chunk, K = 0.
  for (int64_t K : {0, 2, 64}) {
    Config cy = c;
    cy.keepTokens = K;
    batches.push_back({cy,
                       {seq(4, 10, 0, 40), seq(6, 6, 1, 6), seq(1, 1, 2, 1),
                        seq(7, 12, 3, 13)}});
  }
  return batches;
}
