//===- RandomBatch.h - seeded random V4 batches for tests -------*- C++ -*-===//

#ifndef IMETA_TEST_UNIT_RANDOMBATCH_H
#define IMETA_TEST_UNIT_RANDOMBATCH_H

#include "ReferenceV4.h"

#include <cstdint>
#include <random>
#include <vector>

namespace imeta::ref {

enum class PathKind { Prompt, Decode };

/// A valid batch for `kind` (SPEC.md §1 rules R1-R6), drawn from `seed`:
/// random block sizes, several dense and sparse ratios, window and ring
/// sizes, placeholders, swa_valid_start, speculative rows (decode).
Batch randomBatch(PathKind kind, uint64_t seed);

/// The seeds of the GPU test's random decode batches start here; the CPU
/// test checks the same batches against the evaluator.
constexpr uint64_t kGpuSeedBase = 900000;

/// A decode batch with exactly `rows` query rows under the fixed config of
/// the graph-replay test (block 128, window 128, ring 160, ratios dense
/// {1, 4}, sparse {4, 8}, max_model_len 2048, 64 blocks), drawn from `rng`.
Batch graphBatch(std::mt19937_64 &rng, int64_t rows);

/// The graph-replay test's batches: the capture batch (1024 rows), then 20
/// smaller ones, as the GPU test draws them.
std::vector<Batch> graphReplayBatches();

/// The engine's request state of SPEC-async.md §2, one entry per slot.
struct AsyncState {
  std::vector<int64_t> numComputed, lastToken, numDrafts, stateId;
  std::vector<std::vector<int64_t>> draftTokens, blockTable;
};

/// A step's sequence (SPEC-async.md §2): a slot (-1 for a padding
/// placeholder) and is_placeholder.
struct AsyncSequence {
  int64_t slot = 0;
  bool isPlaceholder = false;
  /// Whether the batch file writes is_placeholder when it is false.
  bool writePlaceholder = false;
};

/// The rule a random decode_async batch breaks on purpose, if any.
enum class AsyncBreak {
  None,
  SlotOutOfRange,        ///< a sequence's slot outside [-1, max_slots): R11
  MinusOneNotPlaceholder,///< slot -1 without is_placeholder: R11
  TooManyDrafts,         ///< num_drafts > nextn at a read slot: R11
  NegativeDrafts,        ///< num_drafts < 0 at a read slot: R11
  NegativeComputed,      ///< num_computed < 0 at a read slot: R11
  DraftRowWidth,         ///< a draft_tokens row not nextn long: R11
  StateLengths,          ///< a state array of another length: R11
  ShortBlockTable,       ///< a read row shorter than num_blocks(k): R3
  TooLong,               ///< k > max_model_len at a read slot: R3
  NegativeStateId,       ///< state_id < 0 at a read slot: R3
  NegativeBlockId,       ///< a block id < 0 in a read row: R3
  BlocksOverMax,         ///< num_blocks(k) > max_num_blocks: R5
  RingTooSmall,          ///< swa_block_size < window_size + q - 1: R5
  BlockIdOverflow,       ///< a real sequence's block ids whose slots leave
                         ///< i32 (ratio 1 added): R6, in a fill
  UnreadBadValue,        ///< bad values at slots no sequence reads: valid
};

/// A decode_async batch file (SPEC-async.md §5).
struct AsyncBatch {
  Config config; ///< the decode batches' keys plus nextn
  AsyncState state;
  std::vector<AsyncSequence> sequences;
  AsyncBreak broken = AsyncBreak::None;
  /// The rule the batch breaks ("R11", "R3", "R5"), "" if it is valid.
  const char *brokenRule() const;
};

/// A decode_async batch drawn from `seed`: nextn in 0..3, 1..12 slots
/// (num_computed from 0 up to max_model_len - nextn - 1, num_drafts in
/// 0..nextn, drafts rows of nextn, block-table rows of at least
/// num_blocks(k)), 1..8 sequences reading any slots (repeats allowed),
/// placeholders at slot -1 or at a real slot; swa_block_size >=
/// window_size + nextn (R5 for any q). One batch in eight breaks a rule
/// on purpose (`broken`), or (UnreadBadValue, still valid) has a bad
/// value only at a slot no sequence reads.
AsyncBatch randomAsyncBatch(uint64_t seed);

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_RANDOMBATCH_H
