//===- CompiledBackend.cpp - run a spec through its generated code --------===//

#include "CompiledBackend.h"
#include "CompileCache.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Eval/DriverValues.h"
#include "lib/Lowering/CppEmitter.h"
#include "tools/common/ToolSupport.h"

#include "llvm/ADT/StringSet.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace imeta;

llvm::Expected<GeneratedFiles> imeta::generateFor(SpecOp spec, PathOp path,
                                                  const CompiledRun &options) {
  if (options.staged && path.getTarget() != Target::gpu)
    return toolError(kExitUsage, "path '" + path.getSymName() +
                                     "' has no device stage (target cpu); "
                                     "use --backend cpu");
  if (options.gpu && path.getTarget() != Target::gpu)
    return toolError(kExitUsage, "path '" + path.getSymName() +
                                     "' has no GPU code (target cpu); use "
                                     "--backend cpu");
  FailureOr<GeneratedFiles> files = emitSpec(spec);
  if (failed(files))
    return toolError(kExitSpecInvalid, "code generation failed");
  // Why the path has none of what the backend runs ("" where it has it).
  auto why = [&](const std::map<std::string, std::string> &no) {
    auto it = no.find(path.getSymName().str());
    return it == no.end() ? std::string() : it->second;
  };
  if (std::string no = why(files->noDeviceStage);
      options.staged && !no.empty())
    return toolError(kExitUsage, "path '" + path.getSymName() +
                                     "' has no device stage: " + no);
  if (std::string no = why(files->noDeviceStep);
      options.deviceStep && !no.empty())
    return toolError(kExitUsage, "path '" + path.getSymName() +
                                     "' has no device step: " + no);
  return std::move(*files);
}

llvm::Expected<std::string> imeta::runCompiled(SpecOp spec, PathOp path,
                                               const GeneratedFiles &files,
                                               const Batch &batch,
                                               const CompiledRun &options) {
  const std::string &base = files.baseName;
  CompileJob job;
  job.keepSources = options.keepTemps;
  job.files = files.named();
  if (options.gpu) {
    auto nvcc = llvm::sys::findProgramByName("nvcc");
    if (!nvcc)
      return toolError(kExitUsage,
                       llvm::Twine("--backend ") +
                           (options.deviceStep ? "cuda-step" : "cuda") +
                           " needs nvcc on PATH");
    job.program = *nvcc;
    job.flags = {"-std=c++17", "-O2", "-arch=sm_90", "-shared", "-Xcompiler",
                 "-fPIC", "-DIMETA_DRIVER_CUDA"};
    job.compiled = {base + ".cpp", base + ".cu", base + "_driver.cpp"};
  } else {
    const char *cxx = getenv("CXX");
    auto found = llvm::sys::findProgramByName(cxx ? cxx : "c++");
    if (!found)
      return toolError(kExitUsage,
                       "--backend cpu needs a C++ compiler (c++ or $CXX)");
    job.program = *found;
    job.flags = {"-std=c++17", "-O1", "-shared", "-fPIC"};
    job.compiled = {base + ".cpp", base + "_driver.cpp"};
  }
  llvm::Expected<BuiltObject> object = buildCached(job);
  if (!object)
    return toolError(kExitInternal, llvm::toString(object.takeError()));
  std::string lib = object->path;

  std::string loadError;
  auto library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(lib.c_str(), &loadError);
  if (object->temporary)
    llvm::sys::fs::remove(lib); // loaded: the file is no longer needed
  if (!library.isValid())
    return toolError(kExitInternal,
                     "cannot load the generated code: " + loadError);
  auto run = reinterpret_cast<imeta_driver_run_fn>(
      library.getAddressOfSymbol("imeta_driver_run"));
  if (!run)
    return toolError(kExitInternal,
                     "the generated code has no imeta_driver_run");

  std::string name = path.getSymName().str(), result;
  runtime::DriverArgs values = toDriverArgs(spec, batch);
  values.capacity = options.capacity;
  int rc = values.run(run, name.c_str(), int32_t(batch.sequences.size()),
                      options.deviceStep ? 3
                      : options.gpu      ? 1
                      : options.staged   ? 2
                                         : 0,
                      result);
  if (rc == 3) // the rows outgrow --capacity: the request's fault
    return toolError(kExitUsage, result);
  if (rc != 0)
    return toolError(kExitBatchRefused, result);
  return result;
}

llvm::Expected<std::string>
imeta::selectFields(StringRef text, PathOp path, ArrayRef<std::string> only,
                    llvm::function_ref<bool(StringRef)> absent) {
  if (only.empty())
    return text.str();
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  std::vector<std::string> kept;
  llvm::StringSet<> matched;
  for (StringRef line : lines) {
    StringRef entry = line.trim().rtrim(',');
    if (!entry.starts_with("\""))
      continue;
    StringRef name = entry.drop_front().split('"').first;
    StringRef baseName = outputBaseName(name);
    for (const std::string &w : only)
      if (w == name || w == baseName) {
        kept.push_back(entry.str());
        matched.insert(w);
        break;
      }
  }
  for (const std::string &w : only)
    if (!matched.contains(w) && !(absent && absent(w)) &&
        !llvm::any_of(getPathOutputs(path),
                      [&](OutputOp o) { return o.getName() == w; }))
      // (A name no output has was refused as usage before the run; what
      // is left is a ratio this batch lacks, as the evaluator says.)
      return toolError(kExitBatchRefused, "path '" + path.getSymName() +
                                              "' has no field '" + w +
                                              "' for this batch");
  std::string out = "{";
  for (size_t k = 0; k < kept.size(); ++k)
    out += (k ? ",\n " : "\n ") + kept[k];
  return out + "\n}\n";
}
