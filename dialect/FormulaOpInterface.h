//===- FormulaOpInterface.h - what a formula op means ------------*- C++ -*-===//

#ifndef IMETA_DIALECT_FORMULAOPINTERFACE_H
#define IMETA_DIALECT_FORMULAOPINTERFACE_H

#include "dialect/CppFormulaPrinter.h"
#include "dialect/FormulaInterpreter.h"
#include "dialect/RangeRuleBuilder.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir {
class DialectRegistry;
}

namespace imeta {
/// How a formula value varies with the column of a `cols` field (see
/// lib/Analysis/ColumnTrend.h). `monotone`: in one direction, not known
/// which.
enum class Trend { invariant, up, down, monotone, none };
/// The trend of an op that does not say: the column's if every operand is
/// invariant, else unknown.
inline Trend defaultColumnTrend(llvm::ArrayRef<Trend> operands) {
  for (Trend t : operands)
    if (t != Trend::invariant)
      return Trend::none;
  return Trend::invariant;
}
} // namespace imeta

#include "dialect/FormulaOpInterface.h.inc"

namespace imeta {
/// Attaches FormulaOpInterface to the arith and scf ops a formula may use
/// (ArithFormulaModels.cpp).
void registerFormulaModels(mlir::DialectRegistry &registry);
} // namespace imeta

#endif // IMETA_DIALECT_FORMULAOPINTERFACE_H
