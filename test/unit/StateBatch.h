//===- StateBatch.h - random slotted batches of state_decode.mlir -*- C++ -*-===//
//
// test/gpu/state_decode.mlir's request state (an engine's arrays by slot)
// and a step's slots, random and broken on purpose: what the staged-run
// test (StateStageTest.cpp, CI) and the device step's GPU test
// (test/gpu/StateStepGpuTest.cu) both run. Needs the generated
// state_decode.h (namespace alias `gen`).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_UNIT_STATEBATCH_H
#define IMETA_TEST_UNIT_STATEBATCH_H

#include "state_decode.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace imeta::statebatch {

namespace gen = imeta_gen::state_decode;

/// The engine's state (host form: the CPU routine's) and a batch of slots.
struct Batch {
  gen::Config config;
  std::vector<int32_t> computed, accepted, drafts, table;
  std::vector<int64_t> draftsOff{0}, tableOff{0};
  std::vector<int32_t> slot;
  std::vector<char> placeholder;
  int32_t slots() const { return int32_t(computed.size()); }
};

inline Batch randomBatch(std::mt19937_64 &rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return int32_t(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
  };
  Batch b;
  b.config.block_size = pick(1, 16);
  b.config.nextn = pick(0, 3);
  const int32_t slots = pick(1, 80);
  for (int32_t s = 0; s < slots; ++s) {
    const int32_t k = pick(0, 5000);
    b.computed.push_back(k);
    b.accepted.push_back(pick(0, b.config.nextn));
    for (int32_t d = 0; d < b.config.nextn; ++d)
      b.drafts.push_back(pick(0, 1 << 20));
    b.draftsOff.push_back(int64_t(b.drafts.size()));
    const int32_t blocks = (k + 1 + b.config.block_size - 1) /
                               b.config.block_size + pick(0, 2);
    for (int32_t t = 0; t < blocks; ++t)
      b.table.push_back(pick(0, 100000));
    b.tableOff.push_back(int64_t(b.table.size()));
  }
  for (int32_t i = 0, n = pick(1, 64); i < n; ++i) {
    const bool pad = pick(0, 9) == 0;
    b.slot.push_back(pad ? -1 : pick(0, slots - 1));
    b.placeholder.push_back(pad || pick(0, 19) == 0);
  }
  return b;
}

/// Sequences over `b`'s slots and its state at the given addresses.
inline gen::Sequences sequences(const Batch &b, const int32_t *computed,
                         const int32_t *accepted, const int32_t *drafts,
                         const int64_t *draftsOff, const int32_t *table,
                         const int64_t *tableOff) {
  gen::Sequences s;
  s.num_seqs = int32_t(b.slot.size());
  s.slot_slots = b.slots();
  s.slot = b.slot.data();
  s.is_placeholder = reinterpret_cast<const bool *>(b.placeholder.data());
  s.computed = computed;
  s.accepted = accepted;
  s.drafts = drafts;
  s.drafts_offsets = draftsOff;
  s.table = table;
  s.table_offsets = tableOff;
  return s;
}

/// A batch broken on purpose in one of five ways (`how`).
inline Batch broken(const Batch &good, int how, std::mt19937_64 &rng) {
  Batch b = good;
  auto some = [&](size_t n) { return size_t(rng() % n); };
  const size_t i = some(b.slot.size());
  const int32_t s = b.slot[i] >= 0 ? b.slot[i] : 0;
  switch (how) {
  case 0: // a slot past the state
    b.slot[i] = b.slots() + int32_t(some(3));
    break;
  case 1: // a value below its minimum, at a slot a sequence reads
    b.slot[i] = s;
    b.computed[size_t(s)] = -1 - int32_t(some(5));
    break;
  case 2: // a drafts row of the wrong width (any slot: checked before all)
    b.drafts.insert(b.drafts.begin() + b.draftsOff[size_t(s) + 1], 7);
    for (size_t r = size_t(s) + 1; r < b.draftsOff.size(); ++r)
      ++b.draftsOff[r];
    break;
  case 3: // R11: accepted <= nextn
    b.slot[i] = s;
    b.accepted[size_t(s)] = b.config.nextn + 1;
    break;
  default: // R11: the block table covers k
    b.slot[i] = s;
    b.computed[size_t(s)] += int32_t(b.config.block_size) * 8;
    break;
  }
  return b;
}

/// `b`'s state in host memory (the CPU routine's).
inline gen::Sequences hostSequences(const Batch &b) {
  return sequences(b, b.computed.data(), b.accepted.data(), b.drafts.data(),
                   b.draftsOff.data(), b.table.data(), b.tableOff.data());
}

/// The block table as an engine keeps it: a table of rows `stride` apart
/// (at least the longest row; the rest of each row -7, never read), with
/// each row's length.
struct Table {
  std::vector<int32_t> rows, lengths;
  int64_t stride = 1;
  explicit Table(const Batch &b, int64_t extra = 0) {
    for (int32_t r = 0; r < b.slots(); ++r)
      stride = std::max(stride, b.tableOff[size_t(r) + 1] - b.tableOff[size_t(r)]);
    stride += extra;
    rows.assign(size_t(b.slots()) * size_t(stride), -7);
    for (int32_t r = 0; r < b.slots(); ++r) {
      const int64_t at = b.tableOff[size_t(r)], n = b.tableOff[size_t(r) + 1] - at;
      std::copy(b.table.begin() + at, b.table.begin() + at + n,
                rows.begin() + int64_t(r) * stride);
      lengths.push_back(int32_t(n));
    }
  }
};

/// `seqs` reading the block table from `t` (as a table, no offsets).
inline gen::Sequences withTable(gen::Sequences seqs, const int32_t *rows,
                                const int32_t *lengths, int64_t stride) {
  seqs.table = rows;
  seqs.table_offsets = nullptr;
  seqs.table_lengths = lengths;
  seqs.table_stride = stride;
  return seqs;
}

} // namespace imeta::statebatch

#endif // IMETA_TEST_UNIT_STATEBATCH_H
