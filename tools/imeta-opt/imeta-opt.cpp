//===- imeta-opt.cpp - mlir-opt for imeta specs ---------------------------===//
//
// Parses, verifies and round-trips specs and runs imeta passes (plus the
// generic canonicalize/cse), and reports the lowering's analyses
// (test/lib), for lit tests.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "dialect/SpecFile.h"
#include "lib/Transforms/Passes.h"
#include "test/lib/TestPasses.h"
#include "tools/common/ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ToolOutputFile.h"
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
  // A diagnostic names its op by its location, not by a dump of the IR
  // (--mlir-print-op-on-diagnostic=true brings the dump back).
  std::vector<char *> args(argv, argv + argc);
  std::string quiet = "--mlir-print-op-on-diagnostic=false";
  args.insert(args.begin() + 1, quiet.data());
  argc = int(args.size());
  argv = args.data();
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
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  // Every pipeline starts by checking the compact formulas (changing
  // nothing): a spec whose formula does not parse is an error without a
  // flag, as in imeta-gen and imeta-run.
  mlir::MlirOptMainConfig pipeline = config;
  config.setPassPipelineSetupFn([pipeline](mlir::PassManager &pm) {
    pm.addPass(imeta::createCheckFormulas());
    return pipeline.setupPassPipeline(pm);
  });
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(input, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(out->os(), std::move(file), registry,
                                     config)))
    return 1;
  out->keep();
  return 0;
}
