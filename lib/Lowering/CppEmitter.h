//===- CppEmitter.h - a spec as C++ (and CUDA) source files -----*- C++ -*-===//

#ifndef IMETA_LOWERING_CPPEMITTER_H
#define IMETA_LOWERING_CPPEMITTER_H

#include "dialect/IMetaOps.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace imeta {

/// The files generated for one spec.
struct GeneratedFiles {
  std::string baseName; ///< e.g. "deepinfer_v4"
  std::string header;   ///< <base>.h: the public API
  std::string impl;     ///< <base>_impl.h: contexts and fill functions,
                        ///< shared by the .cpp and the .cu
  std::string source;   ///< <base>.cpp: host stage and CPU entry points
  /// For specs with GPU paths: <base>_cuda.h (the GPU API) and <base>.cu
  /// (one kernel per GPU path, staging); empty otherwise.
  std::string cudaHeader, cudaSource;
  /// <base>_driver.cpp: a C ABI for tools (imeta-run's compiled backends):
  /// batch values in, the field file out. Engines do not need it.
  std::string driver;
  /// <base>_torch.cpp: the PyTorch binding (`imeta-gen --torch`), one
  /// custom class a path; built with torch's extension machinery.
  std::string torch;
  /// Per GPU path, why it has no device stage (empty: it has one).
  std::map<std::string, std::string> noDeviceStage;
  /// Per GPU path, why it has no device step (empty: it has one).
  std::map<std::string, std::string> noDeviceStep;

  /// The files, as (file name, text), in the order above: the binding
  /// only `withTorch`.
  std::vector<std::pair<std::string, const std::string *>>
  named(bool withTorch = false) const;
};

/// Generates the C++ of every path of `spec`, in files named `fileBase`
/// ("": the spec's name). Unsupported constructs get a located error.
mlir::FailureOr<GeneratedFiles> emitSpec(SpecOp spec,
                                         llvm::StringRef fileBase = "");

} // namespace imeta

#endif // IMETA_LOWERING_CPPEMITTER_H
