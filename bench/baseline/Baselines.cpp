//===- Baselines.cpp - hand-written metadata routines to beat -------------===//

#include "Baselines.h"

#include <algorithm>

using namespace imeta;
using namespace imeta::baseline;

namespace {
std::vector<int32_t> sortedRatios(const ref::Config &c) {
  std::vector<int32_t> all(c.denseRatios.begin(), c.denseRatios.end());
  all.insert(all.end(), c.sparseRatios.begin(), c.sparseRatios.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}
bool contains(const std::vector<int64_t> &v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}
} // namespace

void imeta::baseline::decodeEager(const ref::Batch &b, Outputs &out) {
  const ref::Config &c = b.config;
  const int32_t W = c.windowSize, S = c.swaBlockSize, B = c.blockSize,
                mnb = c.maxNumBlocks;
  int64_t T = 0;
  for (const ref::Sequence &s : b.sequences)
    T += s.seqlenQ;
  std::vector<int32_t> ratios = sortedRatios(c);
  int32_t r0 = ratios.front();
  int32_t *cu = (out.at(0).resize(b.sequences.size() + 1), out.at(0).data());
  int32_t *pos = (out.at(1).resize(T), out.at(1).data());
  int32_t *ids = (out.at(2).resize(T), out.at(2).data());
  int32_t *gate = (out.at(3).resize(T), out.at(3).data());
  int32_t *valid = (out.at(4).resize(T), out.at(4).data());
  int32_t *qidx = (out.at(5).resize(T), out.at(5).data());
  int32_t *ctx = (out.at(6).resize(T), out.at(6).data());
  int32_t *state = (out.at(7).resize(T), out.at(7).data());
  int32_t *tables = (out.at(8).resize(T * mnb), out.at(8).data());
  int32_t *swaSlot = (out.at(9).resize(T), out.at(9).data());
  int32_t *swaOffLen = (out.at(10).resize(2 * T), out.at(10).data());
  int64_t iq = 0;
  cu[0] = 0;
  for (size_t i = 0; i < b.sequences.size(); ++i) {
    const ref::Sequence &s = b.sequences[i];
    const int32_t q = s.seqlenQ, k = s.seqlenK, start = k - q;
    cu[i + 1] = cu[i] + q;
    int32_t nb = ((k / r0) + B / r0 - 1) / (B / r0);
    for (int32_t j = 0; j < q; ++j, ++iq) {
      int32_t p = start + j;
      pos[iq] = p;
      ids[iq] = j == 0 ? int32_t(s.tokenIds.back()) : int32_t(s.draftTokens[j - 1]);
      gate[iq] = c.forceLoadBalance;
      valid[iq] = !s.isPlaceholder;
      qidx[iq] = s.isPlaceholder ? 998244353 : int32_t(i);
      ctx[iq] = p + 1;
      state[iq] = s.stateId;
      for (int32_t col = 0; col < nb; ++col)
        tables[iq * mnb + col] = int32_t(s.blockTable[col]);
      swaSlot[iq] = (!s.isPlaceholder && q - j <= S)
                        ? int32_t(s.stateId * S + p % S)
                        : -1;
      int32_t w = std::min(p + 1, W);
      swaOffLen[2 * iq] = int32_t(s.stateId * S + (p - w + 1) % S);
      swaOffLen[2 * iq + 1] = w;
    }
  }
  size_t k = 11;
  for (int32_t n : ratios) {
    int32_t bc = B / n;
    int32_t *pc = (out.at(k).resize(T), out.at(k).data());
    int32_t *sc = (out.at(k + 1).resize(T), out.at(k + 1).data());
    int32_t *kl = (out.at(k + 2).resize(T), out.at(k + 2).data());
    int32_t *ol = (out.at(k + 3).resize(2 * T), out.at(k + 3).data());
    k += 4;
    int64_t r = 0;
    for (const ref::Sequence &s : b.sequences)
      for (int32_t j = 0; j < s.seqlenQ; ++j, ++r) {
        int32_t p = int32_t(s.seqlenK - s.seqlenQ) + j;
        bool closes = (p + 1) % n == 0 && !s.isPlaceholder;
        int32_t cidx = p / n;
        pc[r] = closes ? cidx * n : 0;
        sc[r] = closes ? int32_t(s.blockTable[cidx / bc]) * bc + cidx % bc : -1;
        kl[r] = (p + 1) / n;
        ol[2 * r] = int32_t(r * mnb * bc);
        ol[2 * r + 1] = (p + 1) / n;
      }
  }
}

void imeta::baseline::promptRoutine(const ref::Batch &b, Outputs &out) {
  const ref::Config &c = b.config;
  const int32_t W = c.windowSize, S = c.swaBlockSize, B = c.blockSize;
  const int64_t N = b.sequences.size();
  int64_t T = 0;
  for (const ref::Sequence &s : b.sequences)
    T += s.seqlenQ;
  int32_t *cuq = (out.at(0).resize(N + 1), out.at(0).data());
  int32_t *cuk = (out.at(1).resize(N + 1), out.at(1).data());
  int32_t *pos = (out.at(2).resize(T), out.at(2).data());
  int32_t *ids = (out.at(3).resize(T), out.at(3).data());
  int32_t *gate = (out.at(4).resize(T), out.at(4).data());
  int32_t *valid = (out.at(5).resize(T), out.at(5).data());
  int32_t *state = (out.at(6).resize(N), out.at(6).data());
  int32_t *swaSlot = (out.at(7).resize(T), out.at(7).data());
  int32_t *pivots = (out.at(8).resize(4 * T), out.at(8).data());
  cuq[0] = cuk[0] = 0;
  int64_t iq = 0;
  for (int64_t i = 0; i < N; ++i) {
    const ref::Sequence &s = b.sequences[i];
    const int32_t q = s.seqlenQ, k = s.seqlenK, qs = k - q;
    cuq[i + 1] = cuq[i] + q;
    cuk[i + 1] = cuk[i] + k;
    state[i] = s.stateId;
    for (int32_t j = 0; j < q; ++j, ++iq) {
      int32_t p = qs + j;
      pos[iq] = p;
      ids[iq] = int32_t(s.tokenIds[p]);
      gate[iq] = c.forceLoadBalance;
      valid[iq] = !s.isPlaceholder;
      swaSlot[iq] = (!s.isPlaceholder && q - j <= S)
                        ? int32_t(s.stateId * S + p % S)
                        : -1;
      int32_t absLo = std::min(
          std::max({p - W + 1, int32_t(s.swaValidStart), 0}), p + 1);
      int32_t startSlot = std::min(absLo, qs) - (qs - W);
      int32_t kLo = std::max(0, absLo - qs);
      pivots[4 * iq] = int32_t(i) * W + startSlot;
      pivots[4 * iq + 1] = W - startSlot;
      pivots[4 * iq + 2] = int32_t(N) * W + cuq[i] + kLo;
      pivots[4 * iq + 3] = j - kLo + 1;
    }
  }
  // SWA load plan: zero-fill, then the ring range split where it wraps.
  std::vector<int32_t> &swaLoad = out.at(9);
  swaLoad.clear();
  for (int64_t i = 0; i < N; ++i) {
    const ref::Sequence &s = b.sequences[i];
    int32_t he = s.seqlenK - s.seqlenQ, hb = he - W;
    int32_t pad = std::clamp<int32_t>(int32_t(s.swaValidStart) - hb, 0, W);
    int32_t vb = hb + pad;
    if (pad > 0)
      swaLoad.insert(swaLoad.end(), {-1, 0, pad, int32_t(i) * W});
    for (int32_t p = vb; p < he;) {
      int32_t len = std::min(he - p, S - p % S);
      swaLoad.insert(swaLoad.end(), {int32_t(s.stateId), p % S, p % S + len,
                                     int32_t(i) * W + (p - hb)});
      p += len;
    }
  }
  size_t k = 10;
  for (int32_t n : sortedRatios(c)) {
    int32_t bc = B / n;
    // The ratio's eight vectors exist before any is bound: at() grows
    // `fields`, which moves the vectors bound before it.
    (void)out.at(k + 7);
    std::vector<int32_t> &cu = out.at(k), &pc = out.at(k + 1),
                         &sc = out.at(k + 2), &cq = out.at(k + 3),
                         &load = out.at(k + 4), &ks = out.at(k + 5),
                         &ke = out.at(k + 6), &ol = out.at(k + 7);
    k += 8;
    cu.resize(N + 1);
    cq.resize(N + 1);
    cu[0] = cq[0] = 0;
    pc.clear();
    sc.clear();
    load.clear();
    bool sparse = contains(c.sparseRatios, n), dense = contains(c.denseRatios, n);
    ks.resize(sparse ? T : 0);
    ke.resize(sparse ? T : 0);
    ol.resize(dense ? 2 * T : 0);
    int64_t r = 0;
    for (int64_t i = 0; i < N; ++i) {
      const ref::Sequence &s = b.sequences[i];
      int32_t kk = s.seqlenK, qs = kk - s.seqlenQ;
      int32_t m = kk / n, lo = qs / n;
      cu[i + 1] = cu[i] + std::max(1, m);
      cq[i + 1] = cq[i] + std::max(1, m - lo);
      if (lo >= m) {
        pc.push_back(0);
        sc.push_back(-1);
      }
      for (int32_t ci = lo; ci < m; ++ci) {
        pc.push_back(s.isPlaceholder ? 0 : ci * n);
        sc.push_back(s.isPlaceholder
                         ? -1
                         : int32_t(s.blockTable[ci / bc]) * bc + ci % bc);
      }
      int32_t dst = cu[i];
      if (m == 0)
        load.insert(load.end(), {-1, 0, 1, dst});
      for (int32_t blk = 0; blk * bc < m; ++blk) {
        int32_t from = blk * bc, to = std::min(m, (blk + 1) * bc);
        load.insert(load.end(),
                    {int32_t(s.blockTable[blk]), 0, to - from, dst + from});
      }
      for (int32_t j = 0; j < s.seqlenQ; ++j, ++r) {
        int32_t len = (qs + j + 1) / n;
        if (sparse) {
          ks[r] = dst;
          ke[r] = dst + len;
        }
        if (dense) {
          ol[2 * r] = dst;
          ol[2 * r + 1] = len;
        }
      }
    }
  }
}
