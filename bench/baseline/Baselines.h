//===- Baselines.h - hand-written metadata routines to beat ------*- C++ -*-===//
//
// Written plainly by hand from SPEC.md and the article, not generated: the
// loops an engine writes today. (a) the eager decode's per-row loops
// (`decodeEager`), (c) the prompt routine (`promptRoutine`). Both fill
// preallocated outputs, as the article's routines fill pinned tensors.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_BASELINES_H
#define IMETA_BENCH_BASELINES_H

#include "ReferenceV4.h"

#include <cstdint>
#include <vector>

namespace imeta::baseline {

/// Outputs by field, reused across calls (resized, never shrunk).
struct Outputs {
  std::vector<std::vector<int32_t>> fields;
  /// Field k, the list grown to hold it (which moves every vector: bind
  /// references only once the list holds all of them).
  std::vector<int32_t> &at(size_t k) {
    if (fields.size() <= k)
      fields.resize(k + 1);
    return fields[k];
  }
};

/// (a): decode's per-row fields (SPEC.md §4), CPU loops.
void decodeEager(const ref::Batch &batch, Outputs &out);

/// (c): the prompt path's fields (SPEC.md §3), CPU loops.
void promptRoutine(const ref::Batch &batch, Outputs &out);

} // namespace imeta::baseline

#endif // IMETA_BENCH_BASELINES_H
