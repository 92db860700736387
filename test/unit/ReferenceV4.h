//===- ReferenceV4.h - SPEC.md written out by hand, for tests ---*- C++ -*-===//
//
// An independent reference for the DeepInfer V4 fields: plain loops written
// from SPEC.md §3 and §4, sharing nothing with the spec or the evaluator.
// Differential tests compare the evaluator (running specs/deepinfer_v4.mlir)
// against it on random batches.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_UNIT_REFERENCEV4_H
#define IMETA_TEST_UNIT_REFERENCEV4_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace imeta::ref {

struct Config {
  int64_t blockSize, windowSize, swaBlockSize, maxModelLen, maxNumBlocks;
  std::vector<int64_t> denseRatios, sparseRatios;
  bool forceLoadBalance;
  // SPEC-variants.md §1: read by the variant paths only.
  int64_t cpSize = 1, cpRank = 0, keepTokens = 0, nextn = 0;
  int64_t maxNgram = 1, engramPad = 0, engramImage = -1;
  std::vector<int64_t> lookupTable = {}; ///< empty: no Engram keys in the file
};

struct Sequence {
  int64_t seqlenQ, seqlenK, stateId, swaValidStart = 0;
  bool isPlaceholder = false;
  std::vector<int64_t> blockTable, tokenIds, draftTokens;
  int64_t dataLen = 0; ///< SPEC-variants.md §1 (YoCo); 0: not given
};

struct Batch {
  Config config;
  std::vector<Sequence> sequences;
};

/// A field as SPEC.md §6 prints it: a scalar, a flat list, or rows of
/// `width` values.
struct Field {
  bool isScalar = false, isBool = false;
  unsigned width = 1;
  /// A field of columns: rows even when one column wide.
  bool hasCols = false;
  /// Rows of a field of columns zero columns wide (its data is empty).
  int64_t emptyRows = 0;
  std::vector<int64_t> data;
  /// For block_tables: the columns SPEC.md specifies, per row (others are
  /// not compared).
  std::vector<int64_t> liveCols;
};

using Fields = std::map<std::string, Field>;

/// Sorted union of dense and sparse ratios.
std::vector<int64_t> caRatios(const Config &config);
/// num_blocks(i) = ceil((k / r0) / bc(r0)).
int64_t numBlocks(const Config &config, int64_t seqlenK);

Fields prompt(const Batch &batch);
/// prompt_expanded: the prompt's fields plus kv_swa_full_index and the
/// dense kv_ca_index.n expansions.
Fields promptExpanded(const Batch &batch);
/// decode (exclusive cu_seqlens_q) or decode_zos_expanded (inclusive, plus
/// the kv_swa_index and kv_ca_index.n expansions).
Fields decode(const Batch &batch, bool zos);
/// ceil((max_model_len / n) / 128) · 128: the dense expansions' width.
int64_t denseIndexWidth(const Config &config, int64_t n);

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_REFERENCEV4_H
