//===- CompiledBackend.h - run a spec through its generated code -*- C++ -*-=//
//
// imeta-run's `cpu` and `cuda` backends: generate the spec's code, compile
// it (host compiler, or nvcc for the GPU) into a shared object with the
// generated driver, load it and run one path on a batch.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TOOLS_IMETARUN_COMPILEDBACKEND_H
#define IMETA_TOOLS_IMETARUN_COMPILEDBACKEND_H

#include "dialect/IMetaOps.h"
#include "lib/Eval/Batch.h"
#include "lib/Lowering/CppEmitter.h"

#include "llvm/Support/Error.h"

#include <string>

namespace imeta {

struct CompiledRun {
  bool gpu = false;       ///< nvcc and the GPU path's kernel
  bool deviceStep = false; ///< with gpu: the path's device step
  bool staged = false;    ///< CPU, the GPU path's device stage on one lane
  bool keepTemps = false; ///< keep the generated files (path printed)
  int64_t capacity = 0;   ///< rows per output buffer (0: those needed)
};

/// The spec's generated code, or why `options`' backend cannot run `path`
/// (a CPU path on the GPU or its stage, a path without a device stage or
/// step, a spec that does not generate): asked before the batch is read,
/// so that the answer does not depend on the batch.
llvm::Expected<GeneratedFiles> generateFor(SpecOp spec, PathOp path,
                                           const CompiledRun &options);

/// The field file `path` produces on `batch` through `files`, the code
/// generateFor gave for the same options.
llvm::Expected<std::string> runCompiled(SpecOp spec, PathOp path,
                                        const GeneratedFiles &files,
                                        const Batch &batch,
                                        const CompiledRun &options);

/// Keeps the lines of field file `text` whose output is listed in `only`
/// (by name or NAME.n); all of them when `only` is empty. An unknown name
/// is an error, unless `absent` says it is a bucket of this batch that an
/// optional output left out.
llvm::Expected<std::string>
selectFields(llvm::StringRef text, PathOp path,
             llvm::ArrayRef<std::string> only,
             llvm::function_ref<bool(llvm::StringRef)> absent = nullptr);

} // namespace imeta

#endif // IMETA_TOOLS_IMETARUN_COMPILEDBACKEND_H
