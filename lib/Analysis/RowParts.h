//===- RowParts.h - a row's fields split among lanes -------------*- C++ -*-=//
//
// A fill function computes a sequence's rows fields row by row, one lane a
// row. A decode row is one of a few (1 + drafts), so on the GPU most of a
// sequence's lanes wait while one runs every field of its row in a
// dependent chain (bench: the fill and its dry run were a fifth of the
// decode_async step). The fast instantiation on the GPU therefore splits a
// row's fields into parts, each run by its own lane: part p holds some of
// the fields that are outputs, with the rows fields they read (recomputed
// there, not stored), in the space's order. The parts are balanced by the
// size of their formulas, the largest fields placed first; a field no
// output of the row reads (a column loop's alone) joins the smallest part,
// computed but not stored, so that its checks run at every row as in the
// serial loop. (Where several parts of a row fail, the record a plain
// kernel keeps is the first written, no longer the first in field order:
// across rows it was so already; a device step reruns the failing
// sequence checked, in order.)
//
// The checked instantiation and the CPU keep one lane a row (the first
// failure is the one of the fields' order), as does a space of fewer than
// two output fields.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_ANALYSIS_ROWPARTS_H
#define IMETA_ANALYSIS_ROWPARTS_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace imeta {

struct RowPart {
  /// The fields the part computes, in the space's order: its outputs and
  /// the fields they read.
  llvm::SmallVector<FieldOp> fields;
  /// Of those, the ones whose output it stores.
  llvm::SmallVector<FieldOp> stores;
};

/// The parts of `fields` (a space's rows fields, in order), at most
/// `maxParts`; one part (every field, every output) where it cannot split.
/// `isOutput`: whether a field's value is stored.
std::vector<RowPart> rowParts(llvm::ArrayRef<FieldOp> fields,
                              llvm::function_ref<bool(FieldOp)> isOutput,
                              unsigned maxParts);

} // namespace imeta

#endif // IMETA_ANALYSIS_ROWPARTS_H
