//===- SpecFuzzer.cpp - libFuzzer: spec text through imeta-gen's pipeline -===//
//
// Any bytes as a spec: parsed, verified, scheduled (imeta-gen's passes)
// and emitted as C++. A diagnostic is fine; a crash, an assertion, a
// sanitizer report or a timeout is a bug.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/SpecFile.h"
#include "lib/Lowering/CppEmitter.h"
#include "lib/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    imeta::registerSpecDialects(*r);
    return r;
  }();
  mlir::MLIRContext context(*registry);
  context.disableMultithreading();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  // Diagnostics are expected: swallowed.
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::FailureOr<imeta::SpecFile> file =
      imeta::loadSpecBuffer(context, sourceMgr);
  if (mlir::failed(file))
    return 0;
  mlir::PassManager pm(&context, imeta::SpecOp::getOperationName());
  pm.addPass(imeta::createOrderHost());
  pm.addPass(imeta::createFuseRows());
  pm.addPass(imeta::createStackBuckets());
  if (mlir::failed(pm.run(file->spec)))
    return 0;
  (void)imeta::emitSpec(file->spec);
  return 0;
}
