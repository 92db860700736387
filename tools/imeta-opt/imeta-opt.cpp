//===- imeta-opt.cpp - mlir-opt for imeta specs ---------------------------===//
//
// Parses, verifies and round-trips specs and runs imeta passes (plus the
// generic canonicalize/cse), and reports the lowering's analyses
// (test/lib), for lit tests.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/SpecFile.h"
#include "lib/Transforms/Passes.h"
#include "test/lib/TestPasses.h"
#include "tools/common/ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/SourceMgr.h"

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
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "imeta spec optimizer driver\n", registry);
  // Text nested too deep for MLIR's parser is refused before it parses.
  std::string error;
  if (std::unique_ptr<llvm::MemoryBuffer> text =
          input == "-" ? nullptr : mlir::openInputFile(input, &error)) {
    if (std::optional<size_t> at =
            imeta::findTooDeepNesting(text->getBuffer())) {
      llvm::SourceMgr sourceMgr;
      const char *where = text->getBufferStart() + *at;
      sourceMgr.AddNewSourceBuffer(std::move(text), llvm::SMLoc());
      sourceMgr.PrintMessage(
          llvm::SMLoc::getFromPointer(where), llvm::SourceMgr::DK_Error,
          imeta::tooDeepNestingMessage());
      return 1;
    }
  }
  // (Reading standard input twice finds it empty: a spec piped in is not
  // checked here; imeta-gen and imeta-run check every spec.)
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
