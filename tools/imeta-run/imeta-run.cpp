//===- imeta-run.cpp - evaluate a spec on a batch file --------------------===//
//
//   imeta-run SPEC --path P --batch FILE [--fields a,b,...] [-o FILE]
//
// Prints the field file (SPEC.md §6) of path P on stdout (or -o FILE). A
// bad spec gets located diagnostics, a bad batch one line naming the
// sequence and rule; either way nothing is written, and the exit code says
// which (tools/common/ToolSupport.h, README "Exit codes").
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"
#include "dialect/IMetaSymbols.h"
#include "dialect/SpecFile.h"
#include "lib/Analysis/PathPlan.h"
#include "lib/Eval/Batch.h"
#include "lib/Eval/BatchJson.h"
#include "lib/Eval/Evaluator.h"
#include "lib/Eval/FieldJson.h"
#include "CompiledBackend.h"
#include "tools/common/ToolSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/SourceMgr.h"

#include "lib/Eval/DriverValues.h"
#include "runtime/DriverReplay.h"

#include <optional>
#include <sstream>

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
             "nvcc, run on the GPU; cuda-step: as cuda, by the path's device "
             "step (no per-sequence host work); stage: as cpu, with a GPU "
             "path's host stage run as its device stage runs it (a test of "
             "that stage without a GPU)"),
    cl::init("interp"), cl::cat(category));
static cl::opt<int64_t> capacity(
    "capacity",
    cl::desc("rows per bucket of every output buffer, as a graph captured "
             "at the largest batch holds; an output with a declared fill "
             "prints its rows up to it, and one with more rows is a usage "
             "error"),
    cl::value_desc("rows"), cl::init(0), cl::cat(category));
static cl::opt<bool> saveTemps(
    "save-temps",
    cl::desc("keep the generated code (cpu/cuda; compiled again even where "
             "the compile cache, $IMETA_CACHE_DIR, holds it)"),
    cl::cat(category));

static cl::opt<std::string> replayFile(
    "write-replay",
    cl::desc("also write the run a generated driver makes on this batch "
             "(path, values, capacity) to FILE, for a machine without LLVM "
             "to run it again (runtime/DriverReplay.h)"),
    cl::value_desc("file"), cl::cat(category));

static cl::opt<std::string> outputFile(
    "o", cl::desc("write the field file to FILE (written only on success)"),
    cl::value_desc("file"), cl::init("-"), cl::cat(category));

/// Reports `msg`; exits with `code` (README, "Exit codes").
static int error(const llvm::Twine &msg, imeta::ExitCode code) {
  return imeta::reportError("imeta-run", msg, code);
}

/// The batch file as JSON: unreadable or not JSON is a usage error, a
/// batch that breaks a rule is refused.
static llvm::Expected<imeta::Batch> readBatch(imeta::SpecOp spec,
                                              imeta::PathOp path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(batchFile);
  if (!buffer)
    return imeta::toolError(imeta::kExitUsage,
                            "cannot read batch file '" + batchFile +
                                "': " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      imeta::parseBatchJson((*buffer)->getBuffer());
  if (!json)
    return imeta::toolError(imeta::kExitUsage,
                            "batch file '" + batchFile + "': " +
                                llvm::toString(json.takeError()));
  return imeta::parseBatch(spec, *json, path);
}

/// Buffers of --capacity rows hold every output, or the request is at
/// fault (the generated driver's words: runtime/DriverHelpers.inc): the
/// outputs in order, each bucket, from the host stage's row counts.
static llvm::Error checkCapacity(imeta::Evaluator &evaluator,
                                 imeta::PathOp path) {
  for (imeta::OutputOp out : imeta::getPathOutputs(path)) {
    mlir::FlatSymbolRefAttr set = imeta::getRatios(
        SymbolTable::lookupSymbolIn(path->getParentOp(), out.getSourceAttr()));
    llvm::SmallVector<int64_t, 8> buckets{0};
    if (set)
      buckets.assign(evaluator.ratios(set).begin(),
                     evaluator.ratios(set).end());
    for (int64_t ratio : buckets) {
      llvm::Expected<int64_t> rows = evaluator.outputRows(out, ratio);
      if (!rows)
        return rows.takeError();
      if (*rows > capacity)
        return imeta::toolError(
            imeta::kExitUsage,
            "--capacity " + llvm::Twine(int64_t(capacity)) + ": output '" +
                out.getName() + "' has " + llvm::Twine(*rows) +
                " rows, more than a buffer of " +
                llvm::Twine(int64_t(capacity)) + " rows holds");
    }
  }
  return llvm::Error::success();
}

/// The compiled backends' options, from the command line.
static imeta::CompiledRun compiledRun() {
  imeta::CompiledRun options;
  options.gpu = backend == "cuda" || backend == "cuda-step";
  options.deviceStep = backend == "cuda-step";
  options.staged = backend == "stage";
  options.keepTemps = saveTemps;
  options.capacity = capacity;
  return options;
}

/// The field file of the path on the batch, by the chosen backend
/// (`generated`: the code of a compiled backend).
static llvm::Expected<std::string>
fieldFile(imeta::SpecOp spec, imeta::PathOp path, const imeta::Batch &batch,
          const imeta::GeneratedFiles *generated) {
  if (generated) {
    llvm::Expected<std::string> text =
        imeta::runCompiled(spec, path, *generated, batch, compiledRun());
    if (!text)
      return text.takeError();
    // A bucket an optional output left out of this step is no error (the
    // evaluator's words), a ratio the batch lacks is.
    auto absent = [&](llvm::StringRef name) {
      auto [base, suffix] = name.rsplit('.');
      int64_t ratio = 0;
      if (suffix.empty() || suffix.getAsInteger(10, ratio))
        return false;
      for (imeta::OutputOp out : imeta::getPathOutputs(path)) {
        if (out.getName() != base || !out.getOptional())
          continue;
        mlir::FlatSymbolRefAttr set = imeta::getRatios(
            SymbolTable::lookupSymbolIn(spec, out.getSourceAttr()));
        return set && llvm::is_contained(
                          imeta::Evaluator(spec, batch).ratios(set), ratio);
      }
      return false;
    };
    return imeta::selectFields(*text, path, fields, absent);
  }
  // The order in which the generated code fails (README, "Which failure
  // is first"): the host stage, the buffers, the fills.
  imeta::Evaluator evaluator(spec, batch);
  if (llvm::Error err = evaluator.checkHostStage(path))
    return err;
  if (capacity > 0)
    if (llvm::Error err = checkCapacity(evaluator, path))
      return err;
  if (llvm::Error err = evaluator.checkFills(path))
    return err;
  auto outputs = evaluator.evaluatePath(path, fields);
  if (!outputs)
    return outputs.takeError();
  std::vector<imeta::FieldValue> padded;
  if (capacity > 0)
    if (llvm::Error err =
            imeta::padToCapacity(path, capacity, *outputs, padded))
      return err;
  std::string text;
  llvm::raw_string_ostream os(text);
  imeta::printFieldFile(os, *outputs);
  return text;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  imeta::setVersionPrinter("imeta-run");
  if (!cl::ParseCommandLineOptions(
          argc, argv, "evaluate an imeta spec on a batch file\n", &llvm::errs()))
    return imeta::kExitUsage;
  if (capacity < 0)
    return error("--capacity " + llvm::Twine(int64_t(capacity)) +
                     ": a buffer holds 0 or more rows",
                 imeta::kExitUsage);
  if (backend != "interp" && backend != "cpu" && backend != "cuda" &&
      backend != "cuda-step" && backend != "stage")
    return error("unknown backend '" + backend +
                     "'; use interp, cpu, cuda, cuda-step or stage",
                 imeta::kExitUsage);
  if (specFile != "-" && !llvm::sys::fs::exists(specFile))
    return error("cannot read spec file '" + specFile + "'",
                 imeta::kExitUsage);

  DialectRegistry registry;
  imeta::registerSpecDialects(registry);
  MLIRContext context(registry);
  // Located diagnostics only: no dump of the operation to a user.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  FailureOr<imeta::SpecFile> file =
      imeta::loadSpecFile(specFile, context, sourceMgr);
  if (failed(file))
    return imeta::kExitSpecInvalid; // Reported through the handler.
  imeta::SpecOp spec = file->spec;
  auto path = dyn_cast_or_null<imeta::PathOp>(
      SymbolTable::lookupSymbolIn(spec, pathName));
  if (!path)
    return error("spec @" + spec.getSymName() + " has no path '" + pathName +
                     "'",
                 imeta::kExitUsage);

  // A --fields name that is no output of the path is a usage error, on
  // every backend, before the batch is read: NAME, or NAME.n for an
  // output over a ratio set or an axis (whether this batch has ratio or
  // index n is the batch's).
  for (const std::string &w : fields) {
    auto [base, suffix] = llvm::StringRef(w).rsplit('.');
    int64_t ratio = 0;
    // Output `name`, or (bucket >= 0) bucket `bucket` of an output over a
    // ratio set (a ratio >= 1) or an axis (an index below kMaxBuckets).
    auto isOutput = [&](llvm::StringRef name, int64_t bucket) {
      return llvm::any_of(imeta::getPathOutputs(path), [&](imeta::OutputOp o) {
        if (o.getName() != name)
          return false;
        if (bucket < 0)
          return true;
        mlir::FlatSymbolRefAttr set = imeta::getRatios(
            SymbolTable::lookupSymbolIn(spec, o.getSourceAttr()));
        if (!set)
          return false;
        return isa<imeta::AxisOp>(SymbolTable::lookupSymbolIn(spec, set))
                   ? bucket < imeta::kMaxBuckets
                   : bucket >= 1;
      });
    };
    // A ratio or index is written as a batch writes it: an integer, no
    // sign or leading zero.
    if (!isOutput(w, -1) &&
        (suffix.empty() || suffix.getAsInteger(10, ratio) || ratio < 0 ||
         std::to_string(ratio) != suffix || !isOutput(base, ratio)))
      return error("--fields: path '" + pathName + "' has no output '" + w +
                       "'",
                   imeta::kExitUsage);
  }
  // What the spec and the backend can run is settled before the batch is
  // read, so that the answer does not depend on it: a path the planner
  // refuses is the spec's fault on every backend (its diagnostic through
  // the handler); a compiled backend's code is generated, or refused with
  // the reason (a CPU path, no device stage or step).
  if (failed(imeta::planPath(path)))
    return imeta::kExitSpecInvalid;
  std::optional<imeta::GeneratedFiles> generated;
  if (backend != "interp") {
    llvm::Expected<imeta::GeneratedFiles> files =
        imeta::generateFor(spec, path, compiledRun());
    if (!files)
      return imeta::report("imeta-run", files.takeError(),
                           imeta::kExitUsage);
    generated = std::move(*files);
  }
  llvm::Expected<imeta::Batch> batch = readBatch(spec, path);
  if (!batch)
    return imeta::report("imeta-run", batch.takeError(),
                         imeta::kExitBatchRefused);
  if (!replayFile.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream replay(replayFile, ec);
    if (ec)
      return error("cannot write '" + replayFile + "': " + ec.message(),
                   imeta::kExitUsage);
    imeta::runtime::DriverArgs values = imeta::toDriverArgs(spec, *batch);
    values.capacity = capacity;
    std::ostringstream text;
    imeta::runtime::writeReplay(text, pathName,
                                int32_t(batch->sequences.size()), values);
    replay << text.str();
  }
  llvm::Expected<std::string> text =
      fieldFile(spec, path, *batch, generated ? &*generated : nullptr);
  if (!text)
    return imeta::report("imeta-run", text.takeError(),
                         imeta::kExitBatchRefused);
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> out =
      openOutputFile(outputFile, &message);
  if (!out)
    return error(message, imeta::kExitUsage);
  out->os() << *text;
  if (llvm::Error err = imeta::keepOutput(*out, outputFile))
    return imeta::report("imeta-run", std::move(err), imeta::kExitUsage);
  return imeta::kExitOk;
}
