//===- FormulaEmitter.h - a field or rule body as C++ -----------*- C++ -*-===//
//
// Prints the body of an imeta.field or imeta.require as C++ statements on
// int64_t temporaries, valid in host code and in CUDA device code. Every
// result of an i32 op is checked to fit (as the evaluator does), loads are
// bounds-checked and divisions guarded; a failure returns
// `imeta_fail(c.err, ...)` from the enclosing function.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_FORMULAEMITTER_H
#define IMETA_LOWERING_FORMULAEMITTER_H

#include "dialect/IMetaOps.h"
#include "lib/Lowering/CodeStream.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace imeta {

/// Spec-wide naming shared by every emitted formula.
struct EmitterState {
  /// Diagnostic sites ("file:line:col op"), indexed by the site ids the
  /// generated code records on failure.
  std::vector<std::string> sites;
  llvm::DenseMap<mlir::Operation *, unsigned> siteOf;
  /// Fields and rules by id, for messages.
  std::vector<std::string> owners;
  /// Ratio sets by id (the generated bucket maps are indexed by these).
  std::vector<mlir::Attribute> ratioSets;
  unsigned nextTemp = 0;

  unsigned site(mlir::Operation *op);
  unsigned owner(llvm::StringRef name);
  unsigned setId(mlir::FlatSymbolRefAttr set);
};

/// Where the formula runs: how the point's indices and bucket are named.
struct FormulaScope {
  int ownerId = 0;                 ///< field or rule id for errors
  mlir::FlatSymbolRefAttr ratios;  ///< the point's ratio set, if bucketed
  std::string bucket = "b";        ///< index of the point's ratio in it
  std::string ratio = "n";         ///< the ratio value
  std::string seq = "-1", row = "-1", globalRow = "-1", col = "-1";
  /// The C++ name of a rows field of the same row space (its value at this
  /// point, given the index of the bucket to read).
  llvm::function_ref<std::string(FieldOp, const std::string &)> rowsLocal;
};

/// Emits `body`; `results` receives the C++ names of the yielded values.
mlir::LogicalResult emitFormula(CodeStream &cs, EmitterState &st,
                                mlir::Region &body, const FormulaScope &scope,
                                llvm::SmallVectorImpl<std::string> &results);

/// The expression indexing the bucket of set `of` that holds the scope's
/// point ("0" when `of` is not bucketed).
std::string bucketIndex(EmitterState &st, const FormulaScope &scope,
                        mlir::FlatSymbolRefAttr of);

} // namespace imeta

#endif // IMETA_LOWERING_FORMULAEMITTER_H
