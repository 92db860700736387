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
#include <optional>
#include <string>
#include <vector>

namespace imeta {

/// One sequence's inputs, by input name.
struct SequenceInputs {
  llvm::StringMap<int64_t> scalars;             ///< i32 and i1 (0/1) inputs
  llvm::StringMap<std::vector<int64_t>> lists;  ///< !imeta.list inputs
};

/// A state input's array (`state.KEY` of the batch file): one value, or
/// one row for a list, per request slot.
struct StateArray {
  std::string slot;                        ///< the slot input's name
  std::vector<int64_t> scalars;            ///< an i32 or i1 input's
  std::vector<std::vector<int64_t>> rows;  ///< a list input's
  size_t size() const { return rows.empty() ? scalars.size() : rows.size(); }
};

/// A batch whose structure matches a spec's declarations.
struct Batch {
  llvm::StringMap<int64_t> config;                ///< i32 and i1 parameters
  llvm::StringMap<std::vector<int64_t>> lists;    ///< list parameters, ratios
  std::vector<SequenceInputs> sequences;
  llvm::StringMap<StateArray> state;              ///< state inputs, by name

  /// Sequence `i`'s value of state input `name` (a scalar), if its slot
  /// reads one (slot >= 0).
  std::optional<int64_t> stateScalar(size_t i, llvm::StringRef name) const;
  /// Sequence `i`'s row of state list `name`, or null (slot -1).
  const std::vector<int64_t> *stateRow(size_t i, llvm::StringRef name) const;
};

/// Reads `json` against the declarations of `spec`. State inputs come
/// from its `state` object: their lengths agree per slot input, a state
/// list with `width` has rows of that length, every slot lies in
/// [-1, slots), and `min` holds at the slots the sequences read (R11 of
/// SPEC-async.md, in the declarations' words). With `path`, the inputs
/// it resolves (imeta.resolve) are not read from the sequences: giving
/// one is an error. Fails with a one-line
/// message naming the sequence, the key and the rule broken. With `path`,
/// the optional config parameters and inputs it `needs` are required
/// (and bounded by `min`); the optional parameters it does not need are
/// read without their bound (another path's business).
llvm::Expected<Batch> parseBatch(SpecOp spec, const llvm::json::Value &json,
                                 PathOp path = nullptr);

} // namespace imeta

#endif // IMETA_EVAL_BATCH_H
