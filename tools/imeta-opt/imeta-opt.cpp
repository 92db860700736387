//===- imeta-opt.cpp - mlir-opt for imeta specs ---------------------------===//
//
// Parses, verifies and round-trips specs and runs imeta passes (plus the
// generic canonicalize/cse), and reports the lowering's analyses
// (test/lib), for lit tests.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "lib/Transforms/Passes.h"
#include "test/lib/TestPasses.h"
#include "tools/common/ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  // LLVM's own options (backends, Polly, ...) are registered by now: kept
  // out of --help, which lists mlir-opt's options and the imeta passes.
  imeta::hideOptionsRegisteredSoFar();
  imeta::setVersionPrinter("imeta-opt");
  mlir::DialectRegistry registry;
  imeta::registerSpecDialects(registry);
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  imeta::registerIMetaPasses();
  imeta::test::registerTestPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "imeta spec optimizer driver\n", registry));
}
