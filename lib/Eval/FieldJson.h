//===- FieldJson.h - the field file of SPEC.md §6 ---------------*- C++ -*-===//

#ifndef IMETA_EVAL_FIELDJSON_H
#define IMETA_EVAL_FIELDJSON_H

#include "lib/Eval/Evaluator.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace imeta {

/// Prints one JSON object, one output per line, in path order: each field
/// a number (scalar), a list (flat [N], [N+1], [T]) or a list of lists
/// ([X, K] and columns), compact as llvm::json prints; bools as true/false.
void printFieldFile(llvm::raw_ostream &os,
                    llvm::ArrayRef<OutputValue> outputs);

/// `outputs` as buffers of `capacity` rows show them: each output of
/// `path` that declares a fill (`imeta.output ... fill(v)`) gets rows of
/// `v` after its own up to `capacity`. The padded copies live in
/// `padded`, which the outputs then point into. An error past the
/// evaluator's limit on one field (2^28 values).
llvm::Error padToCapacity(PathOp path, int64_t capacity,
                          std::vector<OutputValue> &outputs,
                          std::vector<FieldValue> &padded);

} // namespace imeta

#endif // IMETA_EVAL_FIELDJSON_H
