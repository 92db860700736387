//===- FuzzSpec.h - a spec loaded once for a fuzzer ------------*- C++ -*-===//

#ifndef IMETA_TEST_FUZZ_FUZZSPEC_H
#define IMETA_TEST_FUZZ_FUZZSPEC_H

#include "dialect/IMetaDialect.h"
#include "dialect/SpecFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>

namespace imeta::fuzz {

/// A spec file and the context it lives in, for the whole run.
struct LoadedSpec {
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  SpecFile file;
};

/// Loads `path` (a fuzzer's fixed spec); aborts if it does not load.
inline LoadedSpec loadSpec(const char *path) {
  LoadedSpec s;
  mlir::DialectRegistry registry;
  registerSpecDialects(registry);
  s.context = std::make_unique<mlir::MLIRContext>(registry);
  mlir::FailureOr<SpecFile> file = loadSpecFile(path, *s.context, s.sourceMgr);
  if (mlir::failed(file)) {
    llvm::errs() << "fuzzer: cannot load " << path << "\n";
    std::abort();
  }
  s.file = std::move(*file);
  return s;
}

} // namespace imeta::fuzz

#endif // IMETA_TEST_FUZZ_FUZZSPEC_H
