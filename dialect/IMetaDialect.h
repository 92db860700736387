//===- IMetaDialect.h - the imeta dialect -----------------------*- C++ -*-===//

#ifndef IMETA_DIALECT_IMETADIALECT_H
#define IMETA_DIALECT_IMETADIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "dialect/IMetaDialect.h.inc"
#include "dialect/IMetaEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/IMetaTypes.h.inc"

namespace imeta {
/// Registers the dialects a spec may use: imeta, arith and scf.
void registerSpecDialects(mlir::DialectRegistry &registry);
} // namespace imeta

#endif // IMETA_DIALECT_IMETADIALECT_H
