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

/// How deep a spec's text may nest brackets ({, (, [, <) outside strings
/// and comments: MLIR's parser recurses per level (5,000 levels overflow
/// its stack), so deeper text is refused before it is parsed.
constexpr unsigned kMaxSpecNesting = 1000;

/// The offset in `text` of the first bracket nested deeper than
/// kMaxSpecNesting, if any.
std::optional<size_t> findTooDeepNesting(llvm::StringRef text);

/// The words of that refusal (every tool's).
std::string tooDeepNestingMessage();

/// Reports (through `sourceMgr`'s handler, at the bracket's line and
/// column) a main buffer nested deeper than kMaxSpecNesting.
mlir::LogicalResult checkSpecNesting(mlir::MLIRContext &context,
                                     llvm::SourceMgr &sourceMgr);

/// A parsed and verified spec file and its one imeta.spec.
struct SpecFile {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  SpecOp spec;

  SpecFile() = default;
  SpecFile(SpecFile &&) = default;
  SpecFile &operator=(SpecFile &&) = default;
  /// Frees the module innermost regions first (freeInnermostFirst).
  ~SpecFile();
};

/// Empties the regions nested in `root`, innermost first. MLIR frees a
/// block by dropping the references of everything it holds, at every
/// level, so freeing a nest of depth d top-down costs O(n d); emptied
/// bottom-up it costs O(n).
void freeInnermostFirst(mlir::Operation *root);

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
