//===- CppEmitter.cpp - a spec as C++ and CUDA source files ---------------===//
//
// Three files per spec: the public header (config and sequence structs, the
// buffer set of each path, entry points), the implementation header (one
// context struct per path and the fused fill function of each row space,
// `IMETA_HD` so that CUDA kernels call the same code), and the host source
// (input checks, ratio sets, the host stage, shapes, the CPU fill loop);
// for GPU paths the CUDA pair, and the tools' driver.
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/CppEmitter.h"
#include "lib/Lowering/SpecEmitter.h"

mlir::FailureOr<imeta::GeneratedFiles> imeta::emitSpec(SpecOp spec) {
  emit::SpecEmitter emitter(spec);
  return emitter.run();
}
