//===- imeta-gen.cpp - spec -> generated .h/.cpp --------------------------===//
//
//   imeta-gen SPEC -o DIR
//   imeta-gen SPEC --emit=KIND [--split-input-file] [--verify-diagnostics]
//
// Writes DIR/<spec>.h (public API), DIR/<spec>_impl.h (contexts and fused
// fill functions), DIR/<spec>.cpp (host stage, CPU entry points),
// DIR/<spec>_driver.cpp (the tools' C ABI) and, for a spec with GPU paths,
// DIR/<spec>_cuda.h and DIR/<spec>.cu (staging, one kernel per GPU path).
// They build with a plain C++17 compiler and nvcc, without LLVM. --emit
// prints one of them to stdout instead; with --split-input-file each
// `// -----` chunk of SPEC is a spec of its own (lit tests, mlir-opt
// style), and --verify-diagnostics checks the `expected-error`s in it.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "dialect/SpecFile.h"
#include "lib/Lowering/CppEmitter.h"
#include "lib/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/ToolUtilities.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "mlir/Support/FileUtilities.h"
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
                                   cl::value_desc("dir"), cl::cat(category));

/// One generated file, printed to stdout.
enum class Emit { none, header, impl, source, driver, cudaHeader, cuda };
static cl::opt<Emit> emitKind(
    "emit", cl::desc("print one generated file to stdout instead of -o"),
    cl::init(Emit::none),
    cl::values(clEnumValN(Emit::header, "header", "<spec>.h"),
               clEnumValN(Emit::impl, "impl", "<spec>_impl.h"),
               clEnumValN(Emit::source, "source", "<spec>.cpp"),
               clEnumValN(Emit::driver, "driver", "<spec>_driver.cpp"),
               clEnumValN(Emit::cudaHeader, "cuda-header", "<spec>_cuda.h"),
               clEnumValN(Emit::cuda, "cuda", "<spec>.cu")),
    cl::cat(category));
static cl::opt<bool> splitInput(
    "split-input-file",
    cl::desc("each '// -----' chunk of the input is a spec of its own "
             "(needs --emit)"),
    cl::cat(category));
static cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    cl::desc("check the input's expected-* diagnostics instead of "
             "reporting them"),
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

/// Parses, schedules and emits the spec `sourceMgr` holds.
static FailureOr<imeta::GeneratedFiles> generate(MLIRContext &context,
                                                 llvm::SourceMgr &sourceMgr) {
  FailureOr<imeta::SpecFile> file = imeta::loadSpecBuffer(context, sourceMgr);
  if (failed(file))
    return failure(); // Reported through the diagnostic handler.
  // The schedule passes record what the emitters follow (keeping anything
  // recorded by hand in the spec).
  PassManager pm(&context, imeta::SpecOp::getOperationName());
  pm.addPass(imeta::createOrderHost());
  pm.addPass(imeta::createFuseRows());
  pm.addPass(imeta::createStackBuckets());
  if (failed(pm.run(file->spec)))
    return failure();
  return imeta::emitSpec(file->spec); // On failure, it has reported where.
}

/// The file --emit names; an error for the CUDA files of a spec without
/// GPU paths.
static FailureOr<std::string> selected(const imeta::GeneratedFiles &files) {
  switch (emitKind) {
  case Emit::header:
    return files.header;
  case Emit::impl:
    return files.impl;
  case Emit::source:
    return files.source;
  case Emit::driver:
    return files.driver;
  case Emit::cudaHeader:
  case Emit::cuda:
    if (files.cudaSource.empty()) {
      error("spec @" + files.baseName + " has no GPU path: no CUDA files");
      return failure();
    }
    return emitKind == Emit::cuda ? files.cudaSource : files.cudaHeader;
  case Emit::none:
    break;
  }
  return failure();
}

/// Generates one chunk (or the whole input) and prints the file --emit
/// names.
static LogicalResult emitChunk(std::unique_ptr<llvm::MemoryBuffer> buffer,
                               llvm::raw_ostream &os, DialectRegistry &registry) {
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  if (verifyDiagnostics) {
    // The expected text alone, as mlir-opt checks it.
    context.printOpOnDiagnostic(false);
    SourceMgrDiagnosticVerifierHandler verifier(sourceMgr, &context);
    FailureOr<imeta::GeneratedFiles> files = generate(context, sourceMgr);
    if (succeeded(files))
      if (FailureOr<std::string> text = selected(*files); succeeded(text))
        os << *text;
    return verifier.verify();
  }
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  FailureOr<imeta::GeneratedFiles> files = generate(context, sourceMgr);
  if (failed(files))
    return failure();
  FailureOr<std::string> text = selected(*files);
  if (failed(text))
    return failure();
  os << *text;
  return success();
}

/// Writes every generated file into -o.
static int writeAll(const imeta::GeneratedFiles &files) {
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return error("cannot create '" + outDir + "': " + ec.message());
  auto at = [&](const std::string &name) {
    llvm::SmallString<256> path(outDir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  const std::string &base = files.baseName;
  if (!write(at(base + ".h"), files.header) ||
      !write(at(base + "_impl.h"), files.impl) ||
      !write(at(base + ".cpp"), files.source) ||
      !write(at(base + "_driver.cpp"), files.driver))
    return 1;
  if (!files.cudaSource.empty() &&
      (!write(at(base + "_cuda.h"), files.cudaHeader) ||
       !write(at(base + ".cu"), files.cudaSource)))
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "imeta code generator\n");
  if ((emitKind == Emit::none) == outDir.empty())
    return error("give one of -o DIR (every file) and --emit=KIND (one file "
                 "to stdout)");
  if ((splitInput || verifyDiagnostics) && emitKind == Emit::none)
    return error("--split-input-file and --verify-diagnostics need --emit");

  DialectRegistry registry;
  imeta::registerSpecDialects(registry);
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(specFile, &message);
  if (!input)
    return error(message);
  if (emitKind != Emit::none) {
    auto chunk = [&](std::unique_ptr<llvm::MemoryBuffer> buffer,
                     llvm::raw_ostream &os) {
      return emitChunk(std::move(buffer), os, registry);
    };
    if (splitInput)
      return failed(splitAndProcessBuffer(std::move(input), chunk, llvm::outs(),
                                          kDefaultSplitMarker,
                                          kDefaultSplitMarker));
    return failed(chunk(std::move(input), llvm::outs()));
  }
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  FailureOr<imeta::GeneratedFiles> files = generate(context, sourceMgr);
  if (failed(files))
    return 1;
  return writeAll(*files);
}
