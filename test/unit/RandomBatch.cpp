//===- RandomBatch.cpp - seeded random V4 batches for tests ---------------===//

#include "RandomBatch.h"

#include <algorithm>
#include <random>

using namespace imeta::ref;

namespace {
struct Draw {
  std::mt19937_64 rng;
  int64_t in(int64_t lo, int64_t hi) { // inclusive
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng); }
  std::vector<int64_t> list(size_t n, int64_t lo, int64_t hi) {
    std::vector<int64_t> v(n);
    for (int64_t &x : v)
      x = in(lo, hi);
    return v;
  }
};

/// A random subset of the powers of two dividing `blockSize`, of at most
/// `maxSize` elements.
std::vector<int64_t> ratioSubset(Draw &d, int64_t blockSize, int maxSize) {
  std::vector<int64_t> divisors;
  for (int64_t n = 1; n <= blockSize; n *= 2)
    divisors.push_back(n);
  std::shuffle(divisors.begin(), divisors.end(), d.rng);
  divisors.resize(std::min<size_t>(divisors.size(), d.in(0, maxSize)));
  return divisors;
}
} // namespace

Batch imeta::ref::randomBatch(PathKind kind, uint64_t seed) {
  Draw d{std::mt19937_64(seed)};
  Batch b;
  Config &c = b.config;
  c.blockSize = int64_t(1) << d.in(0, 7);
  do {
    c.denseRatios = ratioSubset(d, c.blockSize, 2);
    c.sparseRatios = ratioSubset(d, c.blockSize, 2);
  } while (caRatios(c).empty());
  c.windowSize = d.in(1, 12);
  int64_t maxQ = kind == PathKind::Decode ? d.in(1, 4) : 40;
  int64_t minRing = kind == PathKind::Decode ? c.windowSize + maxQ - 1
                                             : c.windowSize;
  c.swaBlockSize = minRing + d.in(0, 6);
  c.maxModelLen = d.in(1, 400);
  c.forceLoadBalance = d.chance(0.5);

  int64_t numSeqs = d.in(1, 6), maxBlocks = 0;
  for (int64_t i = 0; i < numSeqs; ++i) {
    Sequence s;
    s.seqlenQ = d.in(1, std::min(maxQ, c.maxModelLen));
    // Often short histories (k < ratio, k < W), sometimes long ones.
    int64_t extra = d.chance(0.3) ? d.in(0, 3) : d.in(0, 400);
    s.seqlenK = std::min(c.maxModelLen, s.seqlenQ + extra);
    s.stateId = d.in(0, 20);
    s.isPlaceholder = d.chance(0.2);
    if (d.chance(0.4))
      s.swaValidStart = d.in(0, s.seqlenK + 5);
    int64_t nb = numBlocks(c, s.seqlenK);
    maxBlocks = std::max(maxBlocks, nb);
    s.blockTable = d.list(nb + d.in(0, 2), 0, 60);
    if (kind == PathKind::Prompt) {
      s.tokenIds = d.list(s.seqlenK + d.in(0, 2), 0, 50000);
    } else {
      // R5: the whole confirmed history, or its last token alone.
      s.tokenIds = d.list(d.chance(0.3) ? 1 : s.seqlenK - s.seqlenQ + 1, 0,
                          50000);
      s.draftTokens = d.list(s.seqlenQ - 1, 0, 50000);
    }
    b.sequences.push_back(std::move(s));
  }
  c.maxNumBlocks = kind == PathKind::Decode ? maxBlocks + d.in(0, 2)
                                            : d.in(0, 8);
  // The variants' keys (SPEC-variants.md §1), drawn last so that the
  // draws above (and the batches the GPU tests replay) stay as they were.
  c.cpSize = d.in(1, 4);
  c.cpRank = d.in(0, c.cpSize - 1);
  c.keepTokens = d.chance(0.2) ? 0 : d.in(0, 60);
  int64_t batchMaxQ = 1;
  for (Sequence &s : b.sequences) {
    batchMaxQ = std::max(batchMaxQ, s.seqlenQ);
    s.dataLen = std::min(c.maxModelLen,
                         s.seqlenK + (d.chance(0.3) ? 0 : d.in(0, 50)));
  }
  c.nextn = batchMaxQ - 1 + d.in(0, 2);
  return b;
}


Batch imeta::ref::graphBatch(std::mt19937_64 &rng, int64_t rows) {
  Batch b;
  b.config = {/*blockSize=*/128, /*windowSize=*/128, /*swaBlockSize=*/160,
              /*maxModelLen=*/2048, /*maxNumBlocks=*/64, {1, 4}, {4, 8},
              /*forceLoadBalance=*/false};
  auto draw = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  while (rows > 0) {
    Sequence s;
    s.seqlenQ = std::min<int64_t>(rows, draw(1, 2));
    rows -= s.seqlenQ;
    s.seqlenK = draw(s.seqlenQ, b.config.maxModelLen);
    s.stateId = draw(0, 4000);
    s.isPlaceholder = draw(0, 9) == 0;
    s.swaValidStart = draw(0, 3) == 0 ? draw(0, s.seqlenK) : 0;
    int64_t nb = numBlocks(b.config, s.seqlenK);
    for (int64_t k = 0; k < nb; ++k)
      s.blockTable.push_back(draw(0, 100000));
    for (int64_t k = 0; k < s.seqlenK - s.seqlenQ + 1; ++k)
      s.tokenIds.push_back(draw(0, 150000));
    for (int64_t k = 0; k < s.seqlenQ - 1; ++k)
      s.draftTokens.push_back(draw(0, 150000));
    b.sequences.push_back(std::move(s));
  }
  return b;
}

std::vector<Batch> imeta::ref::graphReplayBatches() {
  std::mt19937_64 rng(2026);
  std::vector<Batch> batches{graphBatch(rng, 1024)};
  for (int replay = 0; replay < 20; ++replay) {
    int64_t rows = std::uniform_int_distribution<int64_t>(1, 1023)(rng);
    batches.push_back(graphBatch(rng, rows));
  }
  return batches;
}
