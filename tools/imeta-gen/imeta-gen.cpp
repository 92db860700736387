//===- imeta-gen.cpp - spec -> generated .h/.cpp --------------------------===//
//
//   imeta-gen SPEC -o DIR
//
// Writes DIR/<spec>.h (public API), DIR/<spec>_impl.h (contexts and fused
// fill functions), DIR/<spec>.cpp (host stage, CPU entry points) and, for a
// spec with GPU paths, DIR/<spec>_cuda.h and DIR/<spec>.cu (staging, one
// kernel per GPU path). They build with a plain C++17 compiler and nvcc,
// without LLVM.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "dialect/SpecFile.h"
#include "lib/Lowering/CppEmitter.h"
#include "lib/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("imeta-gen options");
static cl::opt<std::string> specFile(cl::Positional, cl::desc("<spec.mlir>"),
                                     cl::Required, cl::cat(category));
static cl::opt<std::string> outDir("o", cl::desc("output directory"),
                                   cl::value_desc("dir"), cl::Required,
                                   cl::cat(category));

static int error(const llvm::Twine &msg) {
  llvm::WithColor::error(llvm::errs(), "imeta-gen") << msg << "\n";
  return 1;
}

static bool write(const std::string &path, const std::string &text) {
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error("cannot write '" + path + "': " + ec.message());
    return false;
  }
  file.os() << text;
  file.keep();
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "imeta code generator\n");

  DialectRegistry registry;
  imeta::registerSpecDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  FailureOr<imeta::SpecFile> file =
      imeta::loadSpecFile(specFile, context, sourceMgr);
  if (failed(file))
    return 1; // Reported through the diagnostic handler.
  // The schedule passes record what the emitters follow (keeping anything
  // recorded by hand in the spec).
  PassManager pm(&context, imeta::SpecOp::getOperationName());
  pm.addPass(imeta::createOrderHost());
  pm.addPass(imeta::createFuseRows());
  pm.addPass(imeta::createStackBuckets());
  if (failed(pm.run(file->spec)))
    return 1;
  FailureOr<imeta::GeneratedFiles> files = imeta::emitSpec(file->spec);
  if (failed(files))
    return 1; // The emitter has reported where.
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return error("cannot create '" + outDir + "': " + ec.message());
  auto at = [&](const std::string &name) {
    llvm::SmallString<256> path(outDir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  const std::string &base = files->baseName;
  if (!write(at(base + ".h"), files->header) ||
      !write(at(base + "_impl.h"), files->impl) ||
      !write(at(base + ".cpp"), files->source) ||
      !write(at(base + "_driver.cpp"), files->driver))
    return 1;
  if (!files->cudaSource.empty() &&
      (!write(at(base + "_cuda.h"), files->cudaHeader) ||
       !write(at(base + ".cu"), files->cudaSource)))
    return 1;
  return 0;
}
