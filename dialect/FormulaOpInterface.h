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

#include "dialect/FormulaOpInterface.h.inc"

namespace imeta {
/// Attaches FormulaOpInterface to the arith and scf ops a formula may use
/// (ArithFormulaModels.cpp).
void registerFormulaModels(mlir::DialectRegistry &registry);
} // namespace imeta

#endif // IMETA_DIALECT_FORMULAOPINTERFACE_H
