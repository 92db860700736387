//===- EmitTorch.h - the generated PyTorch binding ---------------*- C++ -*-=//
//
// Private to lib/Lowering. <base>_torch.cpp (`imeta-gen --torch`): one
// custom class a path, torch.classes.imeta_<base>.<Path>, with plan() on
// the host and run() on the current CUDA stream (EmitTorch.cpp; the fixed
// part is runtime/TorchBinding.inc).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_EMITTORCH_H
#define IMETA_LOWERING_EMITTORCH_H

#include "lib/Lowering/SpecLayout.h"

namespace imeta::emit {

class TorchEmitter {
public:
  explicit TorchEmitter(const SpecLayout &layout) : L(layout) {}
  void emit(CodeStream &cs);

private:
  void emitPrologue(CodeStream &cs);
  void emitReadConfig(CodeStream &cs);
  void emitReadInputs(CodeStream &cs);
  void emitTraits(CodeStream &cs, const PathPlan &plan);

  const SpecLayout &L;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_EMITTORCH_H
