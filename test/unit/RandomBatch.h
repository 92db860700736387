//===- RandomBatch.h - seeded random V4 batches for tests -------*- C++ -*-===//

#ifndef IMETA_TEST_UNIT_RANDOMBATCH_H
#define IMETA_TEST_UNIT_RANDOMBATCH_H

#include "ReferenceV4.h"

#include <cstdint>

namespace imeta::ref {

enum class PathKind { Prompt, Decode };

/// A valid batch for `kind` (SPEC.md §1 rules R1-R6), drawn from `seed`:
/// random block sizes, several dense and sparse ratios, window and ring
/// sizes, placeholders, swa_valid_start, speculative rows (decode).
Batch randomBatch(PathKind kind, uint64_t seed);

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_RANDOMBATCH_H
