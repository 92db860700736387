//===- imeta-gen.cpp - spec -> generated .h/.cpp --------------------------===//
//
//   imeta-gen SPEC -o DIR [--name NAME] [--paths a,b] [--torch] [--list-files]
//   imeta-gen SPEC --emit=KIND [-o FILE] [--split-input-file] [--verify-diagnostics]
//
// Writes DIR/<spec>.h (public API), DIR/<spec>_impl.h (contexts and fused
// fill functions), DIR/<spec>.cpp (host stage, CPU entry points),
// DIR/<spec>_driver.cpp (the tools' C ABI) and, for a spec with GPU paths,
// DIR/<spec>_cuda.h and DIR/<spec>.cu (staging, one kernel per GPU path);
// <spec> is --name, else the spec's name; with --torch also
// DIR/<spec>_torch.cpp (the PyTorch binding, one custom class a path).
// They build with a plain C++17 compiler and nvcc, without LLVM. --emit
// prints one of them to stdout instead; with --split-input-file each
// `// -----` chunk of SPEC is a spec of its own (lit tests, mlir-opt
// style), and --verify-diagnostics checks the `expected-error`s in it;
// -o FILE writes it there instead (only if it generated).
// --paths keeps only the paths named (and those they extend); --list-files
// prints the paths -o would write (a build system's outputs).
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "dialect/SpecFile.h"
#include "lib/Lowering/CppEmitter.h"
#include "lib/Transforms/Passes.h"
#include "tools/common/ToolSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/ToolUtilities.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("imeta-gen options");
static cl::opt<std::string> specFile(cl::Positional, cl::desc("<spec.mlir>"),
                                     cl::Required, cl::cat(category));
static cl::opt<std::string>
    outDir("o", cl::desc("output directory (with --emit: the output file)"),
           cl::value_desc("dir|file"), cl::cat(category));

/// One generated file, printed to stdout.
enum class Emit { none, header, impl, source, driver, cudaHeader, cuda, torch };
static cl::opt<Emit> emitKind(
    "emit", cl::desc("print one generated file to stdout instead of -o"),
    cl::init(Emit::none),
    cl::values(clEnumValN(Emit::header, "header", "<spec>.h"),
               clEnumValN(Emit::impl, "impl", "<spec>_impl.h"),
               clEnumValN(Emit::source, "source", "<spec>.cpp"),
               clEnumValN(Emit::driver, "driver", "<spec>_driver.cpp"),
               clEnumValN(Emit::cudaHeader, "cuda-header", "<spec>_cuda.h"),
               clEnumValN(Emit::cuda, "cuda", "<spec>.cu"),
               clEnumValN(Emit::torch, "torch", "<spec>_torch.cpp")),
    cl::cat(category));
static cl::opt<bool> splitInput(
    "split-input-file",
    cl::desc("each '// -----' chunk of the input is a spec of its own "
             "(needs --emit)"),
    cl::cat(category));
static cl::opt<std::string> baseName(
    "name",
    cl::desc("base name of the generated files (default: the spec's name)"),
    cl::value_desc("name"), cl::cat(category));
static cl::list<std::string>
    onlyPaths("paths",
              cl::desc("generate only these paths (and those they extend)"),
              cl::value_desc("a,b,..."), cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> withTorch(
    "torch",
    cl::desc("also write <spec>_torch.cpp, the PyTorch binding (one custom "
             "class a path)"),
    cl::cat(category));
static cl::opt<bool> listFiles(
    "list-files",
    cl::desc("print the files -o would write, one a line, and write none "
             "(for build systems)"),
    cl::cat(category));
static cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    cl::desc("check the input's expected-* diagnostics instead of "
             "reporting them"),
    cl::cat(category));

/// A usage or I/O error (exit code 2).
static int error(const llvm::Twine &msg) {
  return imeta::reportError("imeta-gen", msg, imeta::kExitUsage);
}

/// Writes `text` to `path`, unless the file holds it already: a second
/// generation touches nothing, so nothing that includes it rebuilds.
static bool write(const std::string &path, const std::string &text) {
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> old =
          llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
      old && (*old)->getBuffer() == text)
    return true;
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error("cannot write '" + path + "': " + ec.message());
    return false;
  }
  file.os() << text;
  if (llvm::Error err = imeta::keepOutput(file, path)) {
    imeta::report("imeta-gen", std::move(err), imeta::kExitUsage);
    return false;
  }
  return true;
}

/// The exit code of a failed generation: a bad spec, unless a usage error
/// says otherwise.
static int failureCode = imeta::kExitSpecInvalid;

/// Drops the paths --paths does not name (nor extend); an error names a
/// path the spec lacks.
static LogicalResult keepOnlyPaths(imeta::SpecOp spec) {
  if (onlyPaths.empty())
    return success();
  llvm::StringSet<> kept;
  SmallVector<std::string> work(onlyPaths.begin(), onlyPaths.end());
  while (!work.empty()) {
    std::string name = work.pop_back_val();
    auto path = dyn_cast_or_null<imeta::PathOp>(
        SymbolTable::lookupSymbolIn(spec, name));
    if (!path) {
      failureCode = imeta::kExitUsage;
      error("--paths: spec @" + spec.getSymName() + " has no path '" + name +
            "'");
      return failure();
    }
    if (!kept.insert(name).second)
      continue;
    if (ArrayAttr bases = path.getBasesAttr())
      for (Attribute base : bases)
        work.push_back(cast<FlatSymbolRefAttr>(base).getValue().str());
  }
  for (auto path :
       llvm::make_early_inc_range(spec.getBody().front().getOps<imeta::PathOp>()))
    if (!kept.contains(path.getSymName()))
      path.erase();
  return success();
}

/// Parses, schedules and emits the spec `sourceMgr` holds.
static FailureOr<imeta::GeneratedFiles> generate(MLIRContext &context,
                                                 llvm::SourceMgr &sourceMgr) {
  FailureOr<imeta::SpecFile> file = imeta::loadSpecBuffer(context, sourceMgr);
  if (failed(file))
    return failure(); // Reported through the diagnostic handler.
  if (failed(keepOnlyPaths(file->spec)))
    return failure();
  // The schedule passes record what the emitters follow (keeping anything
  // recorded by hand in the spec).
  // They only record attributes: the spec is verified once after them, not
  // after each (a verification costs as much as the three passes).
  PassManager pm(&context, imeta::SpecOp::getOperationName());
  pm.enableVerifier(false);
  pm.addPass(imeta::createOrderHost());
  pm.addPass(imeta::createFuseRows());
  pm.addPass(imeta::createStackBuckets());
  if (failed(pm.run(file->spec)) || failed(verify(file->spec)))
    return failure();
  // On failure, it has reported where.
  return imeta::emitSpec(file->spec, baseName);
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
  case Emit::torch:
    return files.torch;
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
  // Located diagnostics only: no dump of the operation to a user (and the
  // expected text alone for --verify-diagnostics, as mlir-opt checks it).
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  if (verifyDiagnostics) {
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

/// Writes every generated file into -o (with --list-files, prints their
/// paths instead).
static int writeAll(const imeta::GeneratedFiles &files) {
  auto at = [&](const std::string &name) {
    llvm::SmallString<256> path(outDir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  auto all = files.named(withTorch);
  if (listFiles) {
    for (const auto &file : all)
      llvm::outs() << at(file.first) << "\n";
    return imeta::kExitOk;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return error("cannot create '" + outDir + "': " + ec.message());
  for (const auto &[name, text] : all)
    if (!write(at(name), *text))
      return imeta::kExitUsage;
  return imeta::kExitOk;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  imeta::setVersionPrinter("imeta-gen");
  if (!cl::ParseCommandLineOptions(argc, argv, "imeta code generator\n",
                                   &llvm::errs()))
    return imeta::kExitUsage;
  if (emitKind == Emit::none && outDir.empty())
    return error("give -o DIR (every file) or --emit=KIND (one file, to "
                 "stdout or -o FILE)");
  // --name names files inside -o (and their #includes): a path or a
  // quote in it would write elsewhere or break the includes.
  if (!llvm::all_of(baseName, [](char c) {
        return llvm::isAlnum(c) || c == '_' || c == '-';
      }))
    return error("--name '" + baseName +
                 "': letters, digits, '_' and '-' only (it names the files "
                 "written in -o)");
  if (listFiles && emitKind != Emit::none)
    return error("--list-files lists what -o DIR writes; drop --emit");
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
    // The file is kept only when every chunk generated.
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(
        outDir.empty() ? std::string("-") : std::string(outDir), &message);
    if (!out)
      return error(message);
    auto chunk = [&](std::unique_ptr<llvm::MemoryBuffer> buffer,
                     llvm::raw_ostream &os) {
      return emitChunk(std::move(buffer), os, registry);
    };
    LogicalResult done =
        splitInput ? splitAndProcessBuffer(std::move(input), chunk, out->os(),
                                           kDefaultSplitMarker,
                                           kDefaultSplitMarker)
                   : chunk(std::move(input), out->os());
    if (failed(done))
      return failureCode;
    if (llvm::Error err = imeta::keepOutput(
            *out, outDir.empty() ? std::string("-") : std::string(outDir)))
      return imeta::report("imeta-gen", std::move(err), imeta::kExitUsage);
    return imeta::kExitOk;
  }
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);  // located diagnostics only
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  FailureOr<imeta::GeneratedFiles> files = generate(context, sourceMgr);
  if (failed(files))
    return failureCode;
  return writeAll(*files);
}
