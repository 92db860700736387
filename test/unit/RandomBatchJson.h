//===- RandomBatchJson.h - a reference batch as a batch file ----*- C++ -*-===//

#ifndef IMETA_TEST_UNIT_RANDOMBATCHJSON_H
#define IMETA_TEST_UNIT_RANDOMBATCHJSON_H

#include "ReferenceV4.h"

#include "llvm/Support/JSON.h"

namespace imeta::ref {

/// The batch file (SPEC.md §6) of `batch`.
llvm::json::Value toJson(const Batch &batch);

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_RANDOMBATCHJSON_H
