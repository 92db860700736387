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

const char *AsyncBatch::brokenRule() const {
  switch (broken) {
  case AsyncBreak::None:
  case AsyncBreak::UnreadBadValue:
    return "";
  case AsyncBreak::SlotOutOfRange:
  case AsyncBreak::MinusOneNotPlaceholder:
  case AsyncBreak::TooManyDrafts:
  case AsyncBreak::NegativeDrafts:
  case AsyncBreak::NegativeComputed:
  case AsyncBreak::DraftRowWidth:
  case AsyncBreak::StateLengths:
    return "R11";
  case AsyncBreak::ShortBlockTable:
  case AsyncBreak::TooLong:
  case AsyncBreak::NegativeStateId:
  case AsyncBreak::NegativeBlockId:
    return "R3";
  case AsyncBreak::BlocksOverMax:
  case AsyncBreak::RingTooSmall:
    return "R5";
  case AsyncBreak::BlockIdOverflow:
    return "R6";
  }
  return "";
}

AsyncBatch imeta::ref::randomAsyncBatch(uint64_t seed) {
  // A stream of its own: seed s draws nothing like randomBatch(_, s).
  Draw d{std::mt19937_64(seed * 0x9e3779b97f4a7c15ull + 0x5a5a)};
  AsyncBatch b;
  Config &c = b.config;
  c.blockSize = int64_t(1) << d.in(0, 7);
  do {
    c.denseRatios = ratioSubset(d, c.blockSize, 2);
    c.sparseRatios = ratioSubset(d, c.blockSize, 2);
  } while (caRatios(c).empty());
  c.windowSize = d.in(1, 12);
  c.nextn = d.in(0, 3);
  // R5 for every q <= nextn + 1.
  c.swaBlockSize = c.windowSize + c.nextn + d.in(0, 6);
  c.maxModelLen = d.chance(0.2) ? d.in(1, 8) : d.in(1, 400);
  c.forceLoadBalance = d.chance(0.5);
  // Keys other paths read (decode_async ignores them), as decode batches
  // carry them.
  c.cpSize = d.in(1, 4);
  c.cpRank = d.in(0, c.cpSize - 1);
  c.keepTokens = d.in(0, 60);

  // The state: every slot valid as if read (k <= max_model_len).
  AsyncState &st = b.state;
  const int64_t slots = d.in(1, 12);
  // (A broken batch may have cut one array short: 0 past its end.)
  auto kOf = [&](size_t s) {
    int64_t nc = s < st.numComputed.size() ? st.numComputed[s] : 0;
    int64_t nd = s < st.numDrafts.size() ? st.numDrafts[s] : 0;
    return nc + 1 + nd;
  };
  auto addSlot = [&] {
    int64_t room = c.maxModelLen - 1; // k = s + 1 + drafts <= max_model_len
    int64_t nd = d.in(0, std::min(c.nextn, room));
    int64_t top = room - nd, nc;
    switch (d.in(0, 5)) {
    case 0: nc = 0; break;
    case 1: nc = top; break; // k = max_model_len
    case 2: nc = d.in(0, std::min<int64_t>(3, top)); break; // k < ratio, W
    default: nc = d.in(0, top); break;
    }
    st.numComputed.push_back(nc);
    st.numDrafts.push_back(nd);
    st.lastToken.push_back(d.in(0, 50000));
    st.draftTokens.push_back(d.list(size_t(c.nextn), 0, 50000));
    st.stateId.push_back(d.in(0, 20));
    int64_t nb = numBlocks(c, nc + 1 + nd);
    st.blockTable.push_back(d.list(size_t(nb + d.in(0, 2)), 0, 60));
  };
  for (int64_t s = 0; s < slots; ++s)
    addSlot();

  const int64_t n = d.in(1, 8);
  for (int64_t i = 0; i < n; ++i) {
    AsyncSequence q;
    if (d.in(0, 7) == 0) {
      q.slot = -1; // a padding row: placeholder, reads no slot
      q.isPlaceholder = true;
    } else {
      q.slot = d.in(0, slots - 1);
      q.isPlaceholder = d.chance(0.15);
    }
    q.writePlaceholder = q.isPlaceholder || d.chance(0.5);
    b.sequences.push_back(q);
  }

  // A sequence reading a slot (one made so if none does): its index.
  auto readingSeq = [&]() -> size_t {
    std::vector<size_t> reading;
    for (size_t i = 0; i < b.sequences.size(); ++i)
      if (b.sequences[i].slot >= 0)
        reading.push_back(i);
    if (reading.empty()) {
      b.sequences[0] = {d.in(0, slots - 1), false, d.chance(0.5)};
      return 0;
    }
    return reading[size_t(d.in(0, int64_t(reading.size()) - 1))];
  };
  auto readSlot = [&]() { return size_t(b.sequences[readingSeq()].slot); };
  auto isRead = [&](size_t s) {
    for (const AsyncSequence &q : b.sequences)
      if (q.slot == int64_t(s))
        return true;
    return false;
  };
  // The largest num_blocks(k) over the sequences (slot -1: k = 1), and q.
  auto maxBlocksRead = [&]() {
    int64_t nb = 0;
    for (const AsyncSequence &q : b.sequences)
      if (q.slot >= 0 && q.slot < int64_t(st.numComputed.size()))
        nb = std::max(nb, numBlocks(c, std::max<int64_t>(1, kOf(size_t(q.slot)))));
      else
        nb = std::max(nb, numBlocks(c, 1));
    return nb;
  };
  bool setMaxBlocks = true;
  if (d.in(0, 7) == 0) {
    b.broken = AsyncBreak(d.in(int64_t(AsyncBreak::SlotOutOfRange),
                               int64_t(AsyncBreak::UnreadBadValue)));
    // Breaks that need what the batch may lack fall back to TooLong.
    if (b.broken == AsyncBreak::ShortBlockTable) {
      size_t s = readSlot();
      int64_t nb = numBlocks(c, kOf(s));
      if (nb >= 1)
        st.blockTable[s].resize(size_t(d.in(0, nb - 1)));
      else
        b.broken = AsyncBreak::TooLong;
    }
    if (b.broken == AsyncBreak::BlocksOverMax) {
      int64_t nb = maxBlocksRead();
      if (nb >= 1) {
        c.maxNumBlocks = d.in(0, nb - 1);
        setMaxBlocks = false;
      } else {
        b.broken = AsyncBreak::TooLong;
      }
    }
    if (b.broken == AsyncBreak::RingTooSmall) {
      int64_t maxQ = 1;
      for (const AsyncSequence &q : b.sequences)
        if (q.slot >= 0)
          maxQ = std::max(maxQ, 1 + st.numDrafts[size_t(q.slot)]);
      if (maxQ >= 2)
        c.swaBlockSize = c.windowSize + maxQ - 2;
      else
        b.broken = AsyncBreak::TooLong;
    }
    if (b.broken == AsyncBreak::BlockIdOverflow) {
      if (c.blockSize < 2) {
        b.broken = AsyncBreak::TooLong;
      } else {
        // Ratio 1 reads a block at every real position (its slot id *
        // block_size); every row long enough for it.
        auto hasOne = [](const std::vector<int64_t> &set) {
          return std::find(set.begin(), set.end(), 1) != set.end();
        };
        if (!hasOne(c.denseRatios) && !hasOne(c.sparseRatios))
          c.denseRatios.push_back(1);
        for (size_t s = 0; s < st.blockTable.size(); ++s)
          while (int64_t(st.blockTable[s].size()) < numBlocks(c, kOf(s)))
            st.blockTable[s].push_back(d.in(0, 60));
        AsyncSequence &q = b.sequences[readingSeq()];
        q.isPlaceholder = false;
        for (int64_t &id : st.blockTable[size_t(q.slot)])
          id = int64_t(1) << 30;
      }
    }
    switch (b.broken) {
    case AsyncBreak::SlotOutOfRange: {
      AsyncSequence &q = b.sequences[size_t(d.in(0, n - 1))];
      q.slot = d.chance(0.5) ? slots + d.in(0, 3) : -2 - d.in(0, 3);
      break;
    }
    case AsyncBreak::MinusOneNotPlaceholder: {
      AsyncSequence &q = b.sequences[size_t(d.in(0, n - 1))];
      q = {-1, false, d.chance(0.5)};
      break;
    }
    case AsyncBreak::TooManyDrafts:
      st.numDrafts[readSlot()] = c.nextn + d.in(1, 3);
      break;
    case AsyncBreak::NegativeDrafts:
      st.numDrafts[readSlot()] = -d.in(1, 3);
      break;
    case AsyncBreak::NegativeComputed:
      st.numComputed[readSlot()] = -d.in(1, 5);
      break;
    case AsyncBreak::DraftRowWidth: {
      std::vector<int64_t> &row = st.draftTokens[size_t(d.in(0, slots - 1))];
      if (c.nextn > 0 && d.chance(0.5))
        row.pop_back();
      else
        row.push_back(d.in(0, 50000));
      break;
    }
    case AsyncBreak::StateLengths: {
      std::vector<int64_t> *arrays[] = {&st.numComputed, &st.lastToken,
                                        &st.numDrafts, &st.stateId};
      std::vector<int64_t> &a = *arrays[d.in(0, 3)];
      if (a.size() > 1 && d.chance(0.5))
        a.pop_back();
      else
        a.push_back(d.in(0, 5));
      break;
    }
    case AsyncBreak::TooLong: {
      size_t s = readSlot();
      st.numComputed[s] = c.maxModelLen - st.numDrafts[s] + d.in(0, 2);
      int64_t nb = numBlocks(c, kOf(s));
      while (int64_t(st.blockTable[s].size()) < nb)
        st.blockTable[s].push_back(d.in(0, 60));
      break;
    }
    case AsyncBreak::NegativeStateId:
      st.stateId[readSlot()] = -d.in(1, 5);
      break;
    case AsyncBreak::NegativeBlockId: {
      std::vector<int64_t> &row = st.blockTable[readSlot()];
      if (row.empty())
        row.push_back(-1);
      else
        row[size_t(d.in(0, int64_t(row.size()) - 1))] = -d.in(1, 3);
      break;
    }
    case AsyncBreak::UnreadBadValue: {
      std::vector<size_t> unread;
      for (size_t s = 0; s < st.numComputed.size(); ++s)
        if (!isRead(s))
          unread.push_back(s);
      if (unread.empty()) {
        addSlot();
        unread.push_back(st.numComputed.size() - 1);
      }
      size_t s = unread[size_t(d.in(0, int64_t(unread.size()) - 1))];
      switch (d.in(0, 6)) {
      case 0: st.numComputed[s] = -d.in(1, 100); break;
      case 1: st.numComputed[s] = INT32_MAX; break;
      case 2: st.numDrafts[s] = c.nextn + d.in(1, 5); break;
      case 3: st.numDrafts[s] = -d.in(1, 3); break;
      case 4: st.stateId[s] = -d.in(1, 3); break;
      case 5: st.blockTable[s] = {-1}; break;
      default: st.blockTable[s].clear(); st.numComputed[s] = c.maxModelLen; break;
      }
      break;
    }
    default:
      break; // ShortBlockTable, BlocksOverMax, RingTooSmall,
             // BlockIdOverflow: done above
    }
  }
  if (setMaxBlocks)
    c.maxNumBlocks = maxBlocksRead() + d.in(0, 2);
  return b;
}
