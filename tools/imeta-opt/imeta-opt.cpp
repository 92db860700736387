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

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

/// Whether `pipeline`'s first pass expands the compact formulas.
static bool startsByExpanding(const mlir::MlirOptMainConfig &pipeline,
                              mlir::MLIRContext *context) {
  mlir::PassManager probe(context);
  // A pipeline that does not parse is reported once, when it is set up.
  mlir::ScopedDiagnosticHandler quiet(
      context, [](mlir::Diagnostic &) { return mlir::success(); });
  if (mlir::failed(pipeline.setupPassPipeline(probe)))
    return false;
  std::string text;
  llvm::raw_string_ostream os(text);
  probe.printAsTextualPipeline(os);
  llvm::StringRef rest = text;
  // The spec pass nested in the module's pipeline, or the flag's (`any`).
  (void)rest.consume_front("builtin.module(");
  return (rest.consume_front("imeta.spec(") || rest.consume_front("any(")) &&
         rest.starts_with("imeta-expand-formulas");
}

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
  // flag, as in imeta-gen and imeta-run. A pipeline that starts by
  // expanding them checks them there (the check expands a copy: on a large
  // spec, a fifth of the run).
  mlir::MlirOptMainConfig pipeline = config;
  config.setPassPipelineSetupFn([pipeline](mlir::PassManager &pm) {
    if (!startsByExpanding(pipeline, pm.getContext()))
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
