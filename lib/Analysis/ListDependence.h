//===- ListDependence.h - values computed from unbounded list elements -*- C++ -*-===//
//
// The values of a spec's rows-field formulas computed from the elements of
// a list with no declared bound (`imeta.load` of such a list, and what is
// computed from it), and the rows fields whose value is: the range proof
// (lib/Lowering/RangeProof.h) knows no bound for them, so they stay checked
// in both instantiations of a fill.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_ANALYSIS_LISTDEPENDENCE_H
#define IMETA_ANALYSIS_LISTDEPENDENCE_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/DenseSet.h"

namespace imeta {

struct ListDependence {
  llvm::DenseSet<mlir::Value> values;
  llvm::DenseSet<mlir::Operation *> fields;
};

/// Every list-dependent value (and rows field) of the spec's rows-field
/// formulas.
ListDependence analyzeListDependence(SpecOp spec);

} // namespace imeta

#endif // IMETA_ANALYSIS_LISTDEPENDENCE_H
