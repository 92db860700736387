//===- V4Spec.h - the shipped spec, parsed once per test binary -*- C++ -*-===//

#ifndef IMETA_TEST_UNIT_V4SPEC_H
#define IMETA_TEST_UNIT_V4SPEC_H

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

namespace imeta::test {

/// specs/deepinfer_v4.mlir, parsed and verified on first use; null if it
/// does not parse (the test then fails on it).
inline SpecOp v4Spec() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registerSpecDialects(registry);
    return new mlir::MLIRContext(registry);
  }();
  static mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(IMETA_SPEC_DIR "/deepinfer_v4.mlir",
                                            context);
  if (!module)
    return nullptr;
  return *module->getOps<SpecOp>().begin();
}

/// A path of the shipped spec.
inline PathOp v4Path(llvm::StringRef name) {
  return llvm::cast<PathOp>(mlir::SymbolTable::lookupSymbolIn(v4Spec(), name));
}

} // namespace imeta::test

#endif // IMETA_TEST_UNIT_V4SPEC_H
