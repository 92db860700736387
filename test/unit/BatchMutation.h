//===- BatchMutation.h - breaking a valid batch file at random --*- C++ -*-===//
//
// The broken-batch tests start from a valid random batch file and change
// it: a key of the config or of one sequence replaced by a value of the
// wrong type, a negative, zero or huge number, or an empty list; a key
// removed or an unknown one added; the sequence list emptied; one element
// of a list set to an edge value; the request state's keys and slots
// changed likewise.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_UNIT_BATCHMUTATION_H
#define IMETA_TEST_UNIT_BATCHMUTATION_H

#include "llvm/Support/JSON.h"

#include <random>

namespace imeta::test {

/// Replaces, removes or adds one key of the config or of one sequence, or
/// empties the sequence list; in a batch with a `state` object
/// (SPEC-async.md), one time in three replaces, removes or adds one of its
/// keys, or one slot's entry of one of its arrays.
void mutateKey(llvm::json::Object &root, std::mt19937_64 &rng);

/// Sets one element of one list (a sequence's block table, tokens or
/// drafts, a ratio set, a state array or one of its rows) to an edge
/// value: -1, 0, 1, INT32_MAX, INT32_MIN, 2^31, or its neighbour's value
/// plus or minus one.
void mutateElement(llvm::json::Object &root, std::mt19937_64 &rng);

} // namespace imeta::test

#endif // IMETA_TEST_UNIT_BATCHMUTATION_H
