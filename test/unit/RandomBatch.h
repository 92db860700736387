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

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_RANDOMBATCH_H
