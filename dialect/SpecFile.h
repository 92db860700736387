//===- SpecFile.h - reading a spec file for the tools -----------*- C++ -*-===//

#ifndef IMETA_DIALECT_SPECFILE_H
#define IMETA_DIALECT_SPECFILE_H

#include "dialect/IMetaOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace imeta {

/// A parsed and verified spec file and its one imeta.spec.
struct SpecFile {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  SpecOp spec;
};

/// Parses and verifies `path` (diagnostics go through `sourceMgr`'s
/// handler, which the caller installs) and finds its one imeta.spec; on
/// failure the reason has been reported.
mlir::FailureOr<SpecFile> loadSpecFile(llvm::StringRef path,
                                       mlir::MLIRContext &context,
                                       llvm::SourceMgr &sourceMgr);

/// The same for a spec `sourceMgr` already holds (its main buffer: a
/// file, or one chunk of a -split-input-file test).
mlir::FailureOr<SpecFile> loadSpecBuffer(mlir::MLIRContext &context,
                                         llvm::SourceMgr &sourceMgr);

} // namespace imeta

#endif // IMETA_DIALECT_SPECFILE_H
