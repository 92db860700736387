//===- ReferenceVariants.h - SPEC-variants.md as plain loops ----*- C++ -*-===//
//
// The variant paths of ../shared/SPEC-variants.md written out by hand from
// its text (not from the spec's formulas): what the evaluator and the
// generated code are compared against.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_UNIT_REFERENCEVARIANTS_H
#define IMETA_TEST_UNIT_REFERENCEVARIANTS_H

#include "ReferenceV4.h"

namespace imeta::ref {

/// MIRROR(l, rho) of §2.1 for one rank: index[m] (a layout row or -1).
std::vector<int64_t> mirrorIndex(const std::vector<int64_t> &lengths, int64_t p,
                                 int64_t rho);
/// REV of §2.1: each layout row's row in the rank-major all-gather.
std::vector<int64_t> mirrorReverse(const std::vector<int64_t> &lengths,
                                   int64_t p);

/// prompt_cp (§3): the prompt's fields with the mirror's replacements.
Fields promptCp(const Batch &batch);
/// prompt_cp_mirror: prompt_cp's mirror fields alone (the GPU path).
Fields promptCpMirror(const Batch &batch);
/// prompt_cp_expanded: the mirror fields and the prompt's expansions
/// (kv_swa_full_index, kv_ca_index.n) gathered through the mirror, [Tm, W].
Fields promptCpExpanded(const Batch &batch);
/// prompt_yoco (§4): the prompt's fields, the mask and compact views.
Fields promptYoco(const Batch &batch);
/// prompt_yoco_cp (§5): prompt_yoco's fields, prompt_cp's (the full
/// mirror), the compact mirror and the boundary redistribution.
Fields promptYocoCp(const Batch &batch);
/// prompt_engram (§6): the prompt's fields plus ngram_token_ids.
Fields promptEngram(const Batch &batch);
/// A random prompt batch with Engram keys: token ids below a small
/// vocabulary, image sentinels among them (or none), a random table.
Batch randomEngramBatch(uint64_t seed);
/// decode_varlen (§7): decode_zos's fields plus seqlens_q.
Fields decodeVarlen(const Batch &batch);

/// Small batches at the edges §8 names: p = 1, chunks shorter than 2p,
/// clip 0 and q - 1, single-token rows, the worked example itself.
std::vector<Batch> variantEdgeBatches();

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_REFERENCEVARIANTS_H
