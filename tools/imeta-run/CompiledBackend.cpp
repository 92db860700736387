//===- CompiledBackend.cpp - run a spec through its generated code --------===//

#include "CompiledBackend.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Eval/DriverValues.h"
#include "lib/Lowering/CppEmitter.h"

#include "llvm/ADT/StringSet.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace imeta;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Error writeFile(StringRef path, StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return fail("cannot write '" + path + "': " + ec.message());
  os << text;
  return llvm::Error::success();
}

/// Runs `program args...`, its output into `log`; fails with the log.
llvm::Error compile(StringRef program, ArrayRef<std::string> args,
                    StringRef log) {
  SmallVector<StringRef> argv{program};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<StringRef> redirects[] = {std::nullopt, log, log};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                     0, 0, &message);
  if (rc == 0)
    return llvm::Error::success();
  std::string text;
  if (auto buf = llvm::MemoryBuffer::getFile(log))
    text = (*buf)->getBuffer().take_front(4000).str();
  return fail("compiling the generated code failed (" + program + "): " +
              message + "\n" + text);
}

} // namespace

llvm::Expected<std::string> imeta::runCompiled(SpecOp spec, PathOp path,
                                               const Batch &batch,
                                               const CompiledRun &options) {
  if (options.gpu && path.getTarget() != Target::gpu)
    return fail("path '" + path.getSymName() +
                "' has no GPU code (target cpu); use --backend cpu");
  FailureOr<GeneratedFiles> files = emitSpec(spec);
  if (failed(files))
    return fail("code generation failed");

  SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("imeta-run", dir))
    return fail("cannot create a temporary directory: " + ec.message());
  auto at = [&](const std::string &name) {
    SmallString<256> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  };
  const std::string &base = files->baseName;
  for (auto [name, text] :
       {std::pair<std::string, std::string *>{base + ".h", &files->header},
        {base + "_impl.h", &files->impl},
        {base + ".cpp", &files->source},
        {base + "_driver.cpp", &files->driver},
        {base + "_cuda.h", &files->cudaHeader},
        {base + ".cu", &files->cudaSource}})
    if (!text->empty())
      if (llvm::Error err = writeFile(at(name), *text))
        return err;

  std::string lib = at("libimeta_run.so");
  std::vector<std::string> args;
  std::string program;
  if (options.gpu) {
    auto nvcc = llvm::sys::findProgramByName("nvcc");
    if (!nvcc)
      return fail("--backend cuda needs nvcc on PATH");
    program = *nvcc;
    args = {"-std=c++17", "-O2", "-arch=sm_90", "-shared", "-Xcompiler",
            "-fPIC", "-DIMETA_DRIVER_CUDA", "-o", lib, at(base + ".cpp"),
            at(base + ".cu"), at(base + "_driver.cpp")};
  } else {
    const char *cxx = getenv("CXX");
    auto found = llvm::sys::findProgramByName(cxx ? cxx : "c++");
    if (!found)
      return fail("--backend cpu needs a C++ compiler (c++ or $CXX)");
    program = *found;
    args = {"-std=c++17", "-O1", "-shared", "-fPIC", "-o", lib,
            at(base + ".cpp"), at(base + "_driver.cpp")};
  }
  if (llvm::Error err = compile(program, args, at("compile.log")))
    return err;

  std::string loadError;
  auto library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(lib.c_str(), &loadError);
  if (!library.isValid())
    return fail("cannot load the generated code: " + loadError);
  auto run = reinterpret_cast<imeta_driver_run_fn>(
      library.getAddressOfSymbol("imeta_driver_run"));
  if (!run)
    return fail("the generated code has no imeta_driver_run");

  std::string name = path.getSymName().str(), result;
  runtime::DriverArgs values = toDriverArgs(spec, batch);
  values.capacity = options.capacity;
  int rc = values.run(run, name.c_str(), int32_t(batch.sequences.size()),
                      options.gpu, result);
  if (options.keepTemps)
    llvm::errs() << "imeta-run: generated code kept in " << dir << "\n";
  else
    llvm::sys::fs::remove_directories(dir);
  if (rc != 0)
    return fail(result);
  return result;
}

llvm::Expected<std::string>
imeta::selectFields(StringRef text, PathOp path, ArrayRef<std::string> only) {
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
    StringRef baseName = name.split('.').first;
    for (const std::string &w : only)
      if (w == name || w == baseName) {
        kept.push_back(entry.str());
        matched.insert(w);
        break;
      }
  }
  for (const std::string &w : only)
    if (!matched.contains(w) &&
        !llvm::any_of(getPathOutputs(path),
                      [&](OutputOp o) { return o.getName() == w; }))
      return fail("path '" + path.getSymName() + "' has no field '" + w +
                  "' for this batch");
  std::string out = "{";
  for (size_t k = 0; k < kept.size(); ++k)
    out += (k ? ",\n " : "\n ") + kept[k];
  return out + "\n}\n";
}
