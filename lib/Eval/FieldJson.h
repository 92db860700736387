//===- FieldJson.h - the field file of SPEC.md §6 ---------------*- C++ -*-===//

#ifndef IMETA_EVAL_FIELDJSON_H
#define IMETA_EVAL_FIELDJSON_H

#include "lib/Eval/Evaluator.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace imeta {

/// The JSON value of a field: a number (scalar), a list (flat [N], [N+1],
/// [T]), or a list of lists ([X, K] and columns); bools as true/false.
llvm::json::Value toJson(const FieldValue &value);

/// Prints one JSON object, one output per line, in path order.
void printFieldFile(llvm::raw_ostream &os,
                    llvm::ArrayRef<OutputValue> outputs);

} // namespace imeta

#endif // IMETA_EVAL_FIELDJSON_H
