//===- IMetaDialect.cpp - the imeta dialect -------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imeta;

#include "dialect/IMetaDialect.cpp.inc"
#include "dialect/IMetaEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/IMetaTypes.cpp.inc"

void IMetaDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialect/IMetaOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/IMetaTypes.cpp.inc"
      >();
}

void imeta::registerSpecDialects(DialectRegistry &registry) {
  registry.insert<IMetaDialect, arith::ArithDialect, scf::SCFDialect>();
  registerFormulaModels(registry);
}
