//===- imeta-run.cpp - evaluate a spec on a batch file --------------------===//
//
//   imeta-run SPEC --path P --batch FILE [--fields a,b,...]
//
// Prints the field file (SPEC.md §6) of path P on stdout. A bad spec gets
// located diagnostics, a bad batch one line naming the sequence and rule;
// either way stdout stays empty and the exit code is 1.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "dialect/SpecFile.h"
#include "lib/Eval/Batch.h"
#include "lib/Eval/Evaluator.h"
#include "lib/Eval/FieldJson.h"
#include "CompiledBackend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("imeta-run options");
static cl::opt<std::string> specFile(cl::Positional, cl::desc("<spec.mlir>"),
                                     cl::Required, cl::cat(category));
static cl::opt<std::string> pathName("path", cl::desc("path to evaluate"),
                                     cl::value_desc("name"), cl::Required,
                                     cl::cat(category));
static cl::opt<std::string> batchFile("batch", cl::desc("batch file (JSON)"),
                                      cl::value_desc("file"), cl::Required,
                                      cl::cat(category));
static cl::list<std::string>
    fields("fields", cl::desc("print only these fields (NAME or NAME.n)"),
           cl::value_desc("a,b,..."), cl::CommaSeparated, cl::cat(category));
static cl::opt<std::string> backend(
    "backend",
    cl::desc("interp: the reference evaluator; cpu: generated C++ compiled "
             "with the host compiler; cuda: generated CUDA compiled with "
             "nvcc, run on the GPU"),
    cl::init("interp"), cl::cat(category));
static cl::opt<int64_t> capacity(
    "capacity",
    cl::desc("rows per bucket of every output buffer, as a graph captured "
             "at the largest batch holds; an output with a declared fill "
             "prints its rows up to it"),
    cl::value_desc("rows"), cl::init(0), cl::cat(category));
static cl::opt<bool> saveTemps(
    "save-temps",
    cl::desc("keep the generated code (cpu/cuda; compiled again even where "
             "the compile cache, $IMETA_CACHE_DIR, holds it)"),
    cl::cat(category));

static int error(const llvm::Twine &msg) {
  llvm::WithColor::error(llvm::errs(), "imeta-run") << msg << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "evaluate an imeta spec on a batch file\n");
  if (capacity < 0)
    return error("--capacity " + llvm::Twine(int64_t(capacity)) +
                 ": a buffer holds 0 or more rows");
  if (backend != "interp" && backend != "cpu" && backend != "cuda")
    return error("unknown backend '" + backend +
                 "'; use interp, cpu or cuda");

  DialectRegistry registry;
  imeta::registerSpecDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  FailureOr<imeta::SpecFile> file =
      imeta::loadSpecFile(specFile, context, sourceMgr);
  if (failed(file))
    return 1; // Reported through the diagnostic handler.
  imeta::SpecOp spec = file->spec;
  auto path = dyn_cast_or_null<imeta::PathOp>(
      SymbolTable::lookupSymbolIn(spec, pathName));
  if (!path)
    return error("spec @" + spec.getSymName() + " has no path '" + pathName +
                 "'");

  llvm::Expected<imeta::Batch> batch = imeta::readBatchFile(spec, batchFile, path);
  if (!batch)
    return error(llvm::toString(batch.takeError()));
  if (backend != "interp") {
    imeta::CompiledRun options{backend == "cuda", saveTemps, capacity};
    llvm::Expected<std::string> text =
        imeta::runCompiled(spec, path, *batch, options);
    if (!text)
      return error(llvm::toString(text.takeError()));
    llvm::Expected<std::string> selected =
        imeta::selectFields(*text, path, fields);
    if (!selected)
      return error(llvm::toString(selected.takeError()));
    llvm::outs() << *selected;
    return 0;
  }
  imeta::Evaluator evaluator(spec, *batch);
  if (llvm::Error err = evaluator.checkRules(path))
    return error(llvm::toString(std::move(err)));
  auto outputs = evaluator.evaluatePath(path, fields);
  if (!outputs)
    return error(llvm::toString(outputs.takeError()));
  std::vector<imeta::FieldValue> padded;
  if (capacity > 0)
    if (llvm::Error err =
            imeta::padToCapacity(path, capacity, *outputs, padded))
      return error(llvm::toString(std::move(err)));
  imeta::printFieldFile(llvm::outs(), *outputs);
  return 0;
}
