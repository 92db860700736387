//===- SpecFile.cpp - reading a spec file for the tools -------------------===//

#include "dialect/SpecFile.h"
#include "dialect/CompactFormula.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace imeta;

/// Parsing leaves verification to finish(): a compact field's formula is
/// expanded first.
static ParserConfig parserConfig(MLIRContext &context) {
  return ParserConfig(&context, /*verifyAfterParse=*/false);
}

/// The one imeta.spec of a parsed module, its compact formulas expanded,
/// verified.
static FailureOr<SpecFile> finish(OwningOpRef<ModuleOp> module) {
  SpecFile file;
  file.module = std::move(module);
  if (!file.module || failed(expandCompactFormulas(*file.module)) ||
      failed(verify(*file.module)))
    return failure(); // The parser, expansion or verifier has said why.
  auto specs = llvm::to_vector(file.module->getOps<SpecOp>());
  if (specs.size() != 1)
    return emitError(file.module->getLoc(), "expected exactly one imeta.spec");
  file.spec = specs.front();
  return file;
}

FailureOr<SpecFile> imeta::loadSpecFile(StringRef path, MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  return finish(parseSourceFile<ModuleOp>(path, sourceMgr, parserConfig(context)));
}

FailureOr<SpecFile> imeta::loadSpecBuffer(MLIRContext &context,
                                          llvm::SourceMgr &sourceMgr) {
  return finish(parseSourceFile<ModuleOp>(sourceMgr, parserConfig(context)));
}
