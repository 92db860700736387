//===- BatchJson.h - a batch file's text as JSON, within limits -*- C++ -*-===//
//
// What a batch file (SPEC.md §6) may be before it is parsed: at most
// kMaxBatchBytes, kMaxBatchValues and kMaxBatchObjects, nested at most
// kMaxBatchDepth deep (llvm::json's parser recurses: 50,000 `[` would
// overflow the stack), no key twice in one object (llvm::json keeps the
// last). One linear scan says so with the line and column, then llvm::json
// parses. A number written with a fraction or an exponent (64.0, 1e3;
// llvm::json reads them as integers where integral) is read as a string, so
// the batch's checks refuse it as they refuse 8.5, naming the key and the
// rule.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_EVAL_BATCHJSON_H
#define IMETA_EVAL_BATCHJSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>

namespace imeta {

/// The deepest nesting a batch file may have (SPEC.md's is 4).
constexpr int kMaxBatchDepth = 32;
/// The largest batch file: 1 GiB.
constexpr uint64_t kMaxBatchBytes = uint64_t(1) << 30;
/// The most JSON values (numbers, strings, literals, objects, arrays) a
/// batch file may hold: llvm::json's tree takes tens of bytes a value, so
/// a file of 2^24 values parses in well under 2 GB (a 9 MB file of empty
/// objects took 4 GB). SPEC.md's largest batches hold a few million.
constexpr int64_t kMaxBatchValues = int64_t(1) << 24;
/// The most objects a batch file may hold: llvm::json gives an object with
/// a key a table of 64 slots, about 3.5 KB (an 8 MB file of 2^20 objects
/// `{"a":1}` took 3.6 GB and aborted under 4 GB). A batch is an object per
/// sequence and two more: 2^17 objects parse in about 450 MB.
constexpr int64_t kMaxBatchObjects = int64_t(1) << 17;

/// `text` as JSON, or an error naming the line, the column and the limit
/// or rule broken (llvm::json's message where it is not JSON).
llvm::Expected<llvm::json::Value> parseBatchJson(llvm::StringRef text);

} // namespace imeta

#endif // IMETA_EVAL_BATCHJSON_H
