//===- V4Spec.h - the shipped spec, parsed once per test binary -*- C++ -*-===//

#ifndef IMETA_TEST_UNIT_V4SPEC_H
#define IMETA_TEST_UNIT_V4SPEC_H

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "dialect/SpecFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

namespace imeta::test {

/// specs/deepinfer_v4.mlir, loaded as the tools load it (compact formulas
/// expanded, verified) on first use; null if it does not load (the test
/// then fails on it).
inline SpecOp v4Spec() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registerSpecDialects(registry);
    return new mlir::MLIRContext(registry);
  }();
  static SpecOp spec = [] {
    static llvm::SourceMgr sourceMgr;
    static mlir::SourceMgrDiagnosticHandler handler(sourceMgr, context);
    static mlir::FailureOr<SpecFile> file = loadSpecFile(
        IMETA_SPEC_DIR "/deepinfer_v4.mlir", *context, sourceMgr);
    return mlir::succeeded(file) ? file->spec : SpecOp();
  }();
  return spec;
}

/// A path of the shipped spec.
inline PathOp v4Path(llvm::StringRef name) {
  return llvm::cast<PathOp>(mlir::SymbolTable::lookupSymbolIn(v4Spec(), name));
}

} // namespace imeta::test

#endif // IMETA_TEST_UNIT_V4SPEC_H
