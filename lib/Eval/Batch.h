//===- Batch.h - a batch of sequences, read against a spec ------*- C++ -*-===//
//
// The batch file of SPEC.md §6, parsed with llvm::json and checked against
// the spec's declarations (config parameters, ratio sets, inputs): presence,
// types, `min` bounds. The spec's rules (imeta.require) are checked later by
// the evaluator.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_EVAL_BATCH_H
#define IMETA_EVAL_BATCH_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <vector>

namespace imeta {

/// One sequence's inputs, by input name.
struct SequenceInputs {
  llvm::StringMap<int64_t> scalars;             ///< i32 and i1 (0/1) inputs
  llvm::StringMap<std::vector<int64_t>> lists;  ///< !imeta.list inputs
};

/// A batch whose structure matches a spec's declarations.
struct Batch {
  llvm::StringMap<int64_t> config;                ///< i32 and i1 parameters
  llvm::StringMap<std::vector<int64_t>> lists;    ///< list parameters, ratios
  std::vector<SequenceInputs> sequences;
};

/// Reads `json` against the declarations of `spec`. Fails with a one-line
/// message naming the sequence, the key and the rule broken. With `path`,
/// the optional config parameters and inputs it `needs` are required
/// (and bounded by `min`); the optional parameters it does not need are
/// read without their bound (another path's business).
llvm::Expected<Batch> parseBatch(SpecOp spec, const llvm::json::Value &json,
                                 PathOp path = nullptr);

} // namespace imeta

#endif // IMETA_EVAL_BATCH_H
