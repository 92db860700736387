//===- DriverValues.h - a parsed batch as a driver's values -----*- C++ -*-===//
//
// The values a generated driver (runtime/DriverAbi.h) takes for a batch the
// evaluator parsed: config parameters and ratio sets, then every input of
// the spec, by name. imeta-run's compiled backends and the tests that run
// the generated driver beside the evaluator build them here, so both see
// exactly the values the evaluator saw.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_EVAL_DRIVERVALUES_H
#define IMETA_EVAL_DRIVERVALUES_H

#include "dialect/IMetaOps.h"
#include "lib/Eval/Batch.h"
#include "runtime/DriverArgs.h"

namespace imeta {

/// `batch`'s config values and inputs, named as `spec` declares them.
runtime::DriverArgs toDriverArgs(SpecOp spec, const Batch &batch);

} // namespace imeta

#endif // IMETA_EVAL_DRIVERVALUES_H
