//===- IMetaOps.h - ops of the imeta dialect --------------------*- C++ -*-===//

#ifndef IMETA_DIALECT_IMETAOPS_H
#define IMETA_DIALECT_IMETAOPS_H

#include "dialect/FormulaOpInterface.h"
#include "dialect/IMetaDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialect/IMetaOps.h.inc"

#endif // IMETA_DIALECT_IMETAOPS_H
