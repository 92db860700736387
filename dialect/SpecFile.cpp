//===- SpecFile.cpp - reading a spec file for the tools -------------------===//

#include "dialect/SpecFile.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace imeta;

/// The one imeta.spec of a parsed and verified module.
static FailureOr<SpecFile> finish(OwningOpRef<ModuleOp> module) {
  SpecFile file;
  file.module = std::move(module);
  if (!file.module)
    return failure(); // The parser or verifier has reported why.
  auto specs = llvm::to_vector(file.module->getOps<SpecOp>());
  if (specs.size() != 1)
    return emitError(file.module->getLoc(), "expected exactly one imeta.spec");
  file.spec = specs.front();
  return file;
}

FailureOr<SpecFile> imeta::loadSpecFile(StringRef path, MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  return finish(parseSourceFile<ModuleOp>(path, sourceMgr,
                                          ParserConfig(&context)));
}

FailureOr<SpecFile> imeta::loadSpecBuffer(MLIRContext &context,
                                          llvm::SourceMgr &sourceMgr) {
  return finish(parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context)));
}
