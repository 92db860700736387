//===- RandomBatchJson.h - a reference batch as a batch file ----*- C++ -*-===//

#ifndef IMETA_TEST_UNIT_RANDOMBATCHJSON_H
#define IMETA_TEST_UNIT_RANDOMBATCHJSON_H

#include "RandomBatch.h"
#include "ReferenceV4.h"

#include "llvm/Support/JSON.h"

namespace imeta::ref {

/// The batch file (SPEC.md §6) of `batch`.
llvm::json::Value toJson(const Batch &batch);

/// The decode_async batch file (SPEC-async.md §5) of `batch`: its config,
/// its `state` object and the sequences' slots.
llvm::json::Value toJson(const AsyncBatch &batch);

/// toJson(randomAsyncBatch(seed)).
llvm::json::Value randomAsyncBatchJson(uint64_t seed);

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_RANDOMBATCHJSON_H
